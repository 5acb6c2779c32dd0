import { useState } from 'react';
import '../sso.css';
import type { Organization, Role, SsoDomainState, SsoSettings } from '../../../api/contract';
import { canConfigureSso } from '../../../api/roles';
import { useCommand } from '../../../api/use-command';
import { chorusPlanIdle } from '../../../api/way-forward';
import { Refusal } from '../../../components/console/refusal';
import { WayForward } from '../../../components/console/way-forward';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormAlert } from '../../../components/ui/form-alert';
import { Notice } from '../../../components/ui/notice';
import { useDisableSsoMutation } from '../api/sso-api';
import { PROTOCOL_NAMES } from '../sso-change';
import { SsoDomains } from './sso-domains';
import { SsoForm } from './sso-form';

export function Sso({ organization, role }: { organization: Organization; role: Role }) {
  const { available, settings } = organization.sso;
  // The plan it asks for is assigned, and only Chorus being off keeps it from applying.
  const idleEnterprise = chorusPlanIdle(organization) && organization.chorusDetails.plan === 'enterprise';
  return (
    <>
      <PageHeader title="SSO">
        People of {organization.name}’s e-mail domains sign in through your identity provider (OpenID Connect or SAML
        2.0).
      </PageHeader>
      <div className="stack">
        {!available ? (
          <>
            <Section
              title="Single sign-on"
              description={settings === null ? 'Off' : 'Saved, but not in effect on this plan'}
            >
              <Notice tone="info">
                {idleEnterprise ? (
                  <p>
                    Chorus is off, so {organization.name}’s Chorus Enterprise plan, which includes single sign-on, is
                    not in effect.
                  </p>
                ) : (
                  <p>
                    Single sign-on is part of the Enterprise plans: on one, you connect {organization.name}’s identity
                    provider here.
                  </p>
                )}
                <WayForward goal={idleEnterprise ? 'chorus' : 'enterprise'} role={role} organization={organization} />
              </Notice>
            </Section>
            {/* A downgraded organization can still turn off what it had. */}
            {settings !== null && canConfigureSso(role) && (
              <TurnOff organization={organization} role={role} settings={settings} />
            )}
          </>
        ) : !canConfigureSso(role) ? (
          <>
            <Section
              title="Single sign-on"
              description={settings === null ? 'Off' : `On for ${verifiedDomains(settings.domainStates)}`}
            >
              <Notice tone="info">
                <p>Only an owner can change single sign-on.</p>
              </Notice>
            </Section>
            {settings !== null && <LinkAccount organization={organization} />}
          </>
        ) : (
          <>
            <Section
              title="Your identity provider"
              description={settings === null ? 'Single sign-on is off.' : `${setUp(settings)}.`}
            >
              {/* Not keyed by the settings: saving re-reads them, and the form keeps its status and what was typed. */}
              <SsoForm organization={organization} settings={settings} />
            </Section>
            {settings !== null && (
              <Section
                title="Prove your domains"
                description="For each domain, add its TXT record at your DNS provider, then choose Check now. A domain signs no one in until it is verified."
              >
                <SsoDomains organization={organization} states={settings.domainStates} />
              </Section>
            )}
            {settings !== null && <LinkAccount organization={organization} />}
            {settings !== null && <TurnOff organization={organization} role={role} settings={settings} />}
          </>
        )}
      </div>
    </>
  );
}

/** "Set up with SAML 2.0 for acme.example, and required" */
const setUp = (settings: SsoSettings): string =>
  `Set up with ${PROTOCOL_NAMES[settings.protocol ?? 'oidc']} for ${settings.domains.join(', ')}${settings.enforce ? ', and required' : ''}`;

const verifiedDomains = (states: SsoDomainState[]): string => {
  const verified = states.filter((state) => state.status === 'verified').map((state) => state.domain);
  return verified.length === 0 ? 'no verified domain yet' : verified.join(', ');
};

/** An existing account signs in through the provider only once linked, the provider confirming the same address. */
function LinkAccount({ organization }: { organization: Organization }) {
  const here = window.location.pathname;
  return (
    <Section
      title="Your account"
      description={`If you already sign in to Chorus with a password or Google, link your account once to sign in through ${organization.name}’s provider.`}
    >
      <div className="form__actions">
        <a
          className="button button--secondary"
          href={`/auth/sso/${encodeURIComponent(organization.id)}?intent=link&redirect=${encodeURIComponent(here)}`}
        >
          Link my account
        </a>
      </div>
    </Section>
  );
}

function TurnOff({ organization, role, settings }: { organization: Organization; role: Role; settings: SsoSettings }) {
  const [disableSso, { isLoading }] = useDisableSsoMutation();
  const [asking, setAsking] = useState(false);
  const { problem, run } = useCommand();

  async function confirm() {
    await run(() => disableSso({ organizationId: organization.id }).unwrap());
    setAsking(false);
  }

  return (
    <Section
      title="Turn off"
      description="People of these domains then sign in with a password or Google, as everyone else."
    >
      <FormAlert>{problem && <Refusal problem={problem} organization={organization} role={role} />}</FormAlert>
      <div className="form__actions">
        <Button type="button" variant="danger" onClick={() => setAsking(true)}>
          Turn off single sign-on
        </Button>
      </div>
      {asking && (
        <ConfirmDialog
          title="Turn off single sign-on?"
          confirm="Turn off"
          busy={isLoading}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
        >
          {settings.domains.join(', ')} will no longer sign in through your identity provider.{' '}
          {settings.protocol === 'saml'
            ? 'Your provider’s settings are forgotten: to turn it on again, give its metadata again.'
            : 'The client secret is forgotten: to turn it on again, enter it again.'}
        </ConfirmDialog>
      )}
    </Section>
  );
}
