// SAML 2.0 sign-on (docs/directory.md, SAML single sign-on): HTTP-Redirect to the identity provider, HTTP-POST back to
// this organization's
// assertion consumer service. The request is kept in the store, so any node takes the answer and none takes it twice;
// each assertion is accepted once, ever. After that, the same admission as OpenID Connect (sso-admission.ts).
import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { handleCommand, newCommandContext, type CommandContext } from '#application';
import { CONFIG, type Config } from '#config';
import {
  DomainError,
  hasSsoPlan,
  samlAssertionDecider,
  samlRequestDecider,
  type PlanCatalogue,
  type SamlSsoSettings,
} from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import {
  SamlResponseError,
  type Identity,
  type OpenedSession,
  type SamlIdentityProviderSettings,
  type SamlServiceProvider,
} from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { Organizations } from '../organizations/organizations.service.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { SsoAdmission } from './sso-admission.js';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';

/** Where a sign-on the identity provider started lands (docs/console.md). */
const afterIdpInitiated = '/app';

export const samlPaths = (organizationId: string) => ({
  metadata: `/auth/saml/${organizationId}/metadata`,
  acs: `/auth/saml/${organizationId}/acs`,
});

@Injectable()
export class SamlSignOn {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
    private readonly admission: SsoAdmission,
    private readonly clock: AppClock,
  ) {}

  /** The entity id is the metadata's URL, as most service providers do: one value to paste, and it answers. */
  serviceProvider(organizationId: string): SamlServiceProvider {
    const paths = samlPaths(organizationId);
    return { entityId: `${this.config.publicUrl}${paths.metadata}`, acsUrl: `${this.config.publicUrl}${paths.acs}` };
  }

  serviceProviderMetadata(organizationId: string): Promise<string> {
    return this.identity.samlProviders.serviceProviderMetadata(this.serviceProvider(organizationId));
  }

  /** bindToBrowser: the answer must come with the cookie value returned (over https: auth-cookies.ts). */
  async start(
    organizationId: string,
    redirect: string,
    linkUserId: string | undefined,
    bindToBrowser: boolean,
  ): Promise<{ url: URL; binding?: string }> {
    const settings = await this.settings(organizationId);
    // An xs:ID starts with a letter or an underscore.
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const binding = bindToBrowser ? randomBytes(32).toString('base64url') : undefined;
    const started = {
      organizationId,
      redirect,
      ...(linkUserId === undefined ? {} : { linkUserId }),
      ...(binding === undefined ? {} : { browserBinding: digestOf(binding) }),
      at: this.clock.now().toISOString(),
    };
    await handleCommand(
      this.store,
      samlRequestDecider,
      requestId,
      { type: 'StartSamlRequest', data: started },
      this.context(organizationId),
    );
    const url = new URL(
      await this.identity.samlProviders.authorizeUrl(
        this.serviceProvider(organizationId),
        providerOf(settings),
        requestId,
        redirect,
      ),
    );
    return { url, ...(binding === undefined ? {} : { binding }) };
  }

  /** The session and where the browser goes next: the request's redirect, or /app when the provider started it. */
  /** binding: the cookie the browser posted with, if any. */
  async finish(
    organizationId: string,
    samlResponse: unknown,
    binding: string | undefined,
    context: CommandContext,
  ): Promise<{ opened: OpenedSession; redirect: string }> {
    const settings = await this.settings(organizationId);
    if (typeof samlResponse !== 'string' || samlResponse === '')
      throw new SsoSignOnFailure('response-refused', 'The POST holds no SAMLResponse');
    let assertion;
    try {
      assertion = await this.identity.samlProviders.verify(
        this.serviceProvider(organizationId),
        providerOf(settings),
        samlResponse,
      );
    } catch (error) {
      if (error instanceof SamlResponseError) throw new SsoSignOnFailure('response-refused', error.message);
      throw error;
    }
    const who = { subject: assertion.nameId, ...(assertion.email === undefined ? {} : { email: assertion.email }) };
    const at = this.clock.now().toISOString();
    const answered = { organizationId, at, ...(binding === undefined ? {} : { browserBinding: digestOf(binding) }) };
    const request =
      assertion.inResponseTo === null ? undefined : await this.answer(assertion.inResponseTo, answered, who);
    if (request === undefined && !settings.allowIdpInitiated) {
      throw new SsoSignOnFailure(
        'idp-initiated',
        'The response answers no request of this server, and sign-ins started at the provider are not allowed',
        who,
      );
    }
    await this.accept(organizationId, assertion.assertionId, assertion.notOnOrAfter, at, who);
    if (assertion.email === undefined)
      throw new SsoSignOnFailure(
        'email-unverified',
        'The assertion names no address: neither an emailAddress NameID nor an email attribute',
        who,
      );
    const asserted = { issuer: assertion.issuer, subject: assertion.nameId, email: assertion.email };
    const opened = await this.admission.admit(organizationId, asserted, request?.linkUserId, context);
    return { opened, redirect: request?.redirect ?? afterIdpInitiated };
  }

  private async settings(organizationId: string): Promise<SamlSsoSettings> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists || state.sso?.protocol !== 'saml')
      throw new SsoSignOnFailure('not-configured', 'The organization has no SAML single sign-on configured');
    if (!hasSsoPlan(state, this.catalogue))
      throw new SsoSignOnFailure('plan', "The organization's plan does not include single sign-on");
    return state.sso;
  }

  /** Spent once across nodes: the store's expected revision lets one answer through. */
  private async answer(
    requestId: string,
    data: { organizationId: string; browserBinding?: string; at: string },
    who: SsoSignOnFailure['who'],
  ): Promise<{ redirect: string; linkUserId?: string }> {
    if (!/^_[0-9a-f]{40}$/.test(requestId))
      throw new SsoSignOnFailure('response-refused', 'InResponseTo names no request of this server', who);
    let state;
    try {
      ({ state } = await handleCommand(
        this.store,
        samlRequestDecider,
        requestId,
        { type: 'AnswerSamlRequest', data },
        this.context(data.organizationId),
      ));
    } catch (error) {
      if (error instanceof DomainError) throw new SsoSignOnFailure('response-refused', error.message, who);
      throw error;
    }
    if (state.status === 'none') throw new SsoSignOnFailure('response-refused', 'The request is not open', who);
    return { redirect: state.redirect, ...(state.linkUserId === undefined ? {} : { linkUserId: state.linkUserId }) };
  }

  private async accept(
    organizationId: string,
    assertionId: string,
    notOnOrAfter: string | null,
    at: string,
    who: SsoSignOnFailure['who'],
  ): Promise<void> {
    const key = digestOf(`${organizationId}\n${assertionId}`);
    try {
      await handleCommand(
        this.store,
        samlAssertionDecider,
        key,
        { type: 'AcceptSamlAssertion', data: { organizationId, notOnOrAfter, at } },
        this.context(organizationId),
      );
    } catch (error) {
      if (error instanceof DomainError) throw new SsoSignOnFailure('replay', error.message, who);
      throw error;
    }
  }

  /** The sign-on's own records: no personal data, the organization's SSO as their actor. */
  private context(organizationId: string): CommandContext {
    return newCommandContext(`sso:${organizationId}`);
  }
}

const digestOf = (value: string): string => createHash('sha256').update(value).digest('base64url');

const providerOf = (settings: SamlSsoSettings): SamlIdentityProviderSettings => ({
  entityId: settings.idpEntityId,
  ssoUrl: settings.ssoUrl,
  certificates: settings.certificates.map(({ certificate }) => certificate),
});
