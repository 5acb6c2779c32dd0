import { useState, type FormEvent } from 'react';
import type { Organization, Problem, SsoSettings } from '../../../api/contract';
import { useCommand } from '../../../api/use-command';
import { Refusal } from '../../../components/console/refusal';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { useConfigureSsoMutation } from '../api/sso-api';

const MESSAGE_ID = 'sso-settings-message';

/** "a.example, b.example" or one a line: the list the API takes. */
export const splitDomains = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== '');

function refusedField(problem: Problem | null): string | null {
  if (problem === null) return null;
  if (problem.code === 'SSO_DISCOVERY_FAILED') return 'issuer';
  if (problem.code === 'SSO_SECRET_UNREADABLE') return 'clientSecret';
  if (['SSO_DOMAIN_TAKEN', 'SSO_DOMAIN_PUBLIC', 'INVALID_HOSTNAME', 'DUPLICATE'].includes(problem.code)) return 'domains';
  const errors = Array.isArray(problem.errors) ? (problem.errors as { pointer?: unknown }[]) : [];
  const pointer = errors.find((error) => typeof error.pointer === 'string')?.pointer as string | undefined;
  return pointer?.replace(/^#\//, '').split('/')[0] ?? null;
}

/** The client secret is write-only: never shown, and left empty it keeps the one saved. */
export function SsoForm({ organization, settings }: { organization: Organization; settings: SsoSettings | null }) {
  const [configureSso, { isLoading }] = useConfigureSsoMutation();
  const [issuer, setIssuer] = useState(settings?.issuer ?? '');
  const [clientId, setClientId] = useState(settings?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(settings?.domains.join(', ') ?? '');
  const [enforce, setEnforce] = useState(settings?.enforce ?? false);
  const [trustProviderMfa, setTrustProviderMfa] = useState(settings?.trustProviderMfa ?? false);
  const { problem, done, run } = useCommand();
  const refused = refusedField(problem);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const secret = clientSecret.trim();
    const change = { issuer: issuer.trim(), clientId: clientId.trim(), domains: splitDomains(domains), enforce, trustProviderMfa, ...(secret === '' ? {} : { clientSecret: secret }) };
    if (await run(() => configureSso({ organizationId: organization.id, settings: change }).unwrap(), 'Single sign-on is saved.')) setClientSecret('');
  }

  const invalid = (field: string) => refused === field || undefined;
  const describedBy = problem ? MESSAGE_ID : undefined;
  return (
    <form className="form form--inline" noValidate onSubmit={(event) => void submit(event)} aria-busy={isLoading} aria-label="Single sign-on settings">
      <FormAlert id={MESSAGE_ID}>{problem && <Refusal problem={problem} organization={organization} role="owner" />}</FormAlert>
      <TextField
        label="Issuer URL"
        name="issuer"
        type="url"
        inputMode="url"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="https://login.acme.example"
        hint="Your provider’s issuer: Chorus reads its /.well-known/openid-configuration when you save."
        value={issuer}
        onChange={(event) => setIssuer(event.target.value)}
        aria-invalid={invalid('issuer')}
        aria-describedby={describedBy}
      />
      <div className="form__row form__row--even">
        <TextField
          label="Client ID"
          name="clientId"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={clientId}
          onChange={(event) => setClientId(event.target.value)}
          aria-invalid={invalid('clientId')}
          aria-describedby={describedBy}
        />
        <TextField
          label="Client secret"
          name="clientSecret"
          type="password"
          autoComplete="new-password"
          placeholder={settings === null ? undefined : 'Saved (hidden)'}
          hint={settings === null ? 'Stored encrypted; it is never shown again.' : 'Leave empty to keep the saved secret. It is never shown.'}
          value={clientSecret}
          onChange={(event) => setClientSecret(event.target.value)}
          aria-invalid={invalid('clientSecret')}
          aria-describedby={describedBy}
        />
      </div>
      <TextField
        label="Domains"
        name="domains"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="acme.example, acme.co.uk"
        hint="Your organization’s e-mail domains, separated by commas. Each works once a DNS record proves it is yours."
        value={domains}
        onChange={(event) => setDomains(event.target.value)}
        aria-invalid={invalid('domains')}
        aria-describedby={describedBy}
      />
      <CheckboxField
        label="Require single sign-on"
        name="enforce"
        hint="Members with an address at a verified domain can no longer sign in with a password or reset one."
        checked={enforce}
        onChange={(event) => setEnforce(event.target.checked)}
      />
      <CheckboxField
        label="Trust your provider’s two-step sign-in"
        name="trustProviderMfa"
        hint="People signing in through your provider are not asked for a Chorus code or passkey: your provider must ask for a second factor itself. Other organizations that require two-step sign-in still ask."
        checked={trustProviderMfa}
        onChange={(event) => setTrustProviderMfa(event.target.checked)}
      />
      <div className="form__actions">
        <Button type="submit" busy={isLoading}>
          {settings === null ? 'Turn on single sign-on' : 'Save changes'}
        </Button>
      </div>
      <p className="form__status" role="status">
        {done}
      </p>
    </form>
  );
}
