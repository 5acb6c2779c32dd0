// SAML 2.0 through @node-saml/node-saml: it checks the XML signature (of the Response or of the Assertion, either
// enough), the Conditions' times and the Audience. What it leaves to its caller is checked here on the signed
// assertion: the issuer, the bearer confirmation's Recipient, times and InResponseTo, and the Response's
// Destination. Spending the request and the assertion once, across nodes, is the store's (saml-sign-on.ts).
import type { LookupFunction } from 'node:net';
import type { Profile, SAML } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { createProviderFetch, ProviderFetchError, type ProviderFetch } from './provider-fetch.js';
import { MAX_SAML_METADATA_BYTES, readSamlMetadata, SamlMetadataError, type SamlMetadata } from './saml-metadata.js';

export const SAML_CLOCK_SKEW_MS = 60_000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
// Loaded at the first SAML request, not at start-up (bench/cli): most organizations never configure SAML.
let library: Promise<typeof import('@node-saml/node-saml')> | undefined;
const nodeSaml = (): Promise<typeof import('@node-saml/node-saml')> => (library ??= import('@node-saml/node-saml'));

/** Where Okta (`email`), Entra ID (the claim URI) and LDAP-minded providers (`mail`, its OID) put the address. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

/** This organization's side: its entity id (the metadata URL) and its assertion consumer service. */
export type SamlServiceProvider = { entityId: string; acsUrl: string };
export type SamlIdentityProviderSettings = { entityId: string; ssoUrl: string; certificates: readonly string[] };

/** What a verified assertion says. inResponseTo null: started at the identity provider. */
export type SamlAssertion = {
  issuer: string;
  nameId: string;
  email: string | undefined;
  assertionId: string;
  inResponseTo: string | null;
  notOnOrAfter: string | null;
};

/** Its message is for the log and the organization's failure record, never for the browser. */
export class SamlResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlResponseError';
  }
}

export type SamlProvidersOptions = {
  publicAddressesOnly: boolean;
  allowHttpMetadata: boolean;
  lookup?: LookupFunction;
  timeoutMs?: number;
};

export class SamlProviders {
  private readonly fetch: ProviderFetch;

  constructor(private readonly options: SamlProvidersOptions) {
    this.fetch = createProviderFetch({
      publicAddressesOnly: options.publicAddressesOnly,
      maxBytes: MAX_SAML_METADATA_BYTES,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
    });
  }

  /** The same bounded fetch as OpenID Connect discovery: no redirect followed, public addresses only in production. */
  async metadataAt(url: string): Promise<SamlMetadata> {
    if (!url.startsWith('https://') && !(this.options.allowHttpMetadata && url.startsWith('http://'))) {
      throw new SamlMetadataError('The metadata URL must be an https:// URL.');
    }
    let answer: Response;
    try {
      answer = await this.fetch(url, {
        headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      });
    } catch (error) {
      throw new SamlMetadataError(
        `The metadata could not be fetched: ${error instanceof ProviderFetchError ? error.message : 'the connection failed'}.`,
      );
    }
    if (answer.status !== 200) throw new SamlMetadataError(`The metadata URL answered ${answer.status}, not 200.`);
    return readSamlMetadata(await answer.text());
  }

  /** The HTTP-Redirect binding's URL for an AuthnRequest whose ID is requestId. */
  async authorizeUrl(
    sp: SamlServiceProvider,
    idp: SamlIdentityProviderSettings,
    requestId: string,
    relayState: string,
  ): Promise<string> {
    return (await this.saml(sp, idp, requestId)).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** This organization's service provider metadata, for the identity provider to read. */
  async serviceProviderMetadata(sp: SamlServiceProvider): Promise<string> {
    const { generateServiceProviderMetadata } = await nodeSaml();
    return generateServiceProviderMetadata({
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      identifierFormat: EMAIL_FORMAT,
      wantAssertionsSigned: false,
    });
  }

  async verify(
    sp: SamlServiceProvider,
    idp: SamlIdentityProviderSettings,
    samlResponse: string,
  ): Promise<SamlAssertion> {
    let profile: Profile | null;
    const saml = await this.saml(sp, idp);
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw new SamlResponseError(error instanceof Error ? error.message : 'The response could not be read');
    }
    if (profile === null) throw new SamlResponseError('The response holds no assertion');
    return checkAssertion(profile, sp, idp, samlResponse);
  }

  private async saml(sp: SamlServiceProvider, idp: SamlIdentityProviderSettings, requestId?: string): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = await nodeSaml();
    return new SAML({
      issuer: sp.entityId,
      audience: sp.entityId,
      callbackUrl: sp.acsUrl,
      entryPoint: idp.ssoUrl,
      idpIssuer: idp.entityId,
      idpCert: [...idp.certificates],
      identifierFormat: EMAIL_FORMAT,
      wantAssertionsSigned: false,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      // InResponseTo is spent in the store, on every node (saml-sign-on.ts), not in node-saml's memory.
      validateInResponseTo: ValidateInResponseTo.never,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      ...(requestId === undefined ? {} : { generateUniqueId: () => requestId }),
    });
  }
}

type XmlNode = { $?: Record<string, string>; _?: string } & Record<string, unknown>;
const children = (node: unknown, name: string): XmlNode[] =>
  ((node as Record<string, unknown> | undefined)?.[name] as XmlNode[] | undefined) ?? [];

function checkAssertion(
  profile: Profile,
  sp: SamlServiceProvider,
  idp: SamlIdentityProviderSettings,
  samlResponse: string,
): SamlAssertion {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  if (assertion === undefined) throw new SamlResponseError('The assertion cannot be read');
  if (profile.issuer !== idp.entityId)
    throw new SamlResponseError(`The assertion's issuer is ${String(profile.issuer)}, not the identity provider`);
  const assertionId = assertion.$?.ID ?? '';
  if (assertionId === '') throw new SamlResponseError('The assertion has no ID');
  const response = responseAttributes(samlResponse);
  if (response.destination !== null && response.destination !== sp.acsUrl)
    throw new SamlResponseError('The response is addressed to another destination');
  const confirmation = bearerConfirmation(assertion, sp.acsUrl);
  if (confirmation.inResponseTo !== response.inResponseTo)
    throw new SamlResponseError("The response's InResponseTo is not its assertion's");
  // The whole text of the signed NameID (a comment cannot cut it short): node-saml reads it from the verified XML.
  const nameId = profile.nameID;
  const email = profile.nameIDFormat === EMAIL_FORMAT ? nameId : emailAttribute(profile);
  return {
    issuer: idp.entityId,
    nameId,
    email,
    assertionId,
    inResponseTo: confirmation.inResponseTo,
    notOnOrAfter: confirmation.notOnOrAfter,
  };
}

/**
 * A bearer confirmation for this ACS, not expired (the skew allowed); its InResponseTo is signed, the Response's may
 * not be.
 */
function bearerConfirmation(
  assertion: XmlNode,
  acsUrl: string,
): { inResponseTo: string | null; notOnOrAfter: string | null } {
  const now = Date.now();
  for (const subject of children(assertion, 'Subject')) {
    for (const confirmation of children(subject, 'SubjectConfirmation')) {
      if (confirmation.$?.Method !== BEARER) continue;
      const data = children(confirmation, 'SubjectConfirmationData')[0]?.$ ?? {};
      if (data.Recipient !== acsUrl) continue;
      const notOnOrAfter = data.NotOnOrAfter ?? null;
      if (notOnOrAfter === null || now - SAML_CLOCK_SKEW_MS >= Date.parse(notOnOrAfter)) continue;
      return { inResponseTo: data.InResponseTo ?? null, notOnOrAfter };
    }
  }
  throw new SamlResponseError('The assertion has no bearer confirmation for this service provider that is still valid');
}

function emailAttribute(profile: Profile): string | undefined {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const name of EMAIL_ATTRIBUTES) {
    const value = attributes[name];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The Response element's own attributes (node-saml checked its signature, if any, before this is read). */
function responseAttributes(samlResponse: string): { destination: string | null; inResponseTo: string | null } {
  const document = new DOMParser().parseFromString(Buffer.from(samlResponse, 'base64').toString('utf8'), 'text/xml');
  const root = document.documentElement;
  return {
    destination: root?.getAttribute('Destination') || null,
    inResponseTo: root?.getAttribute('InResponseTo') || null,
  };
}
