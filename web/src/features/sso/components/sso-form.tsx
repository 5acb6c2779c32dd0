import { useState, type FormEvent } from 'react';
import type { Organization, SsoProtocol, SsoSettings } from '../../../api/contract';
import { useCommand } from '../../../api/use-command';
import { Refusal } from '../../../components/console/refusal';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { useConfigureSsoMutation } from '../api/sso-api';
import { initialValues, PROTOCOL_NAMES, ssoChange, type SsoFieldsProps, type SsoFormValues } from '../sso-change';
import { isRefused, metadataRefusal, refusedField, type MetadataField } from '../sso-refusals';
import { OidcSettings } from './oidc-settings';
import { SamlSettings } from './saml-settings';

const MESSAGE_ID = 'sso-settings-message';

const PROTOCOL_HINTS: Record<SsoProtocol, string> = {
  oidc: 'Your provider’s issuer URL, a client ID and its secret.',
  saml: 'Your provider’s SAML metadata, as a URL or pasted.',
};

/**
 * One protocol at a time; what was typed for the other stays until the page is left. Secrets and metadata XML are
 * write-only.
 */
export function SsoForm({ organization, settings }: { organization: Organization; settings: SsoSettings | null }) {
  const [configureSso, { isLoading }] = useConfigureSsoMutation();
  const [values, setValues] = useState(() => initialValues(settings));
  const [sent, setSent] = useState<MetadataField | null>(null);
  const { problem, done, run, refuse } = useCommand();
  const refused = refusedField(problem, sent);
  const change = (patch: Partial<SsoFormValues>) => setValues((current) => ({ ...current, ...patch }));
  const savedProtocol = settings === null ? null : settings.protocol === 'saml' ? 'saml' : 'oidc';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = ssoChange(values, settings);
    if ('refusal' in next) {
      refuse(next.refusal);
      return;
    }
    setSent(next.sent);
    const saved = await run(
      () => configureSso({ organizationId: organization.id, settings: next.change }).unwrap(),
      'Single sign-on is saved.',
    );
    // The metadata read is now the saved one: the URL stays (it is saved too), the XML and the secret are not shown
    // again.
    if (saved) change({ clientSecret: '', metadataXml: '', rereadMetadata: false });
  }

  const fields: SsoFieldsProps = {
    organization,
    settings,
    values,
    change,
    invalid: (field) => isRefused(refused, field) || undefined,
    describedBy: problem ? MESSAGE_ID : undefined,
  };
  const ownWords = problem === null ? null : metadataRefusal(problem);
  return (
    <form
      className="form form--inline"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={isLoading}
      aria-label="Single sign-on settings"
    >
      <FormAlert id={MESSAGE_ID}>
        {problem &&
          (ownWords === null ? (
            <Refusal problem={problem} organization={organization} role="owner" />
          ) : (
            <p>{ownWords}</p>
          ))}
      </FormAlert>
      <fieldset
        className="sso-protocol"
        aria-describedby={
          savedProtocol !== null && values.protocol !== savedProtocol ? 'sso-protocol-switch' : undefined
        }
      >
        <legend className="field__label">Protocol</legend>
        <div className="sso-protocol__choices">
          {(['oidc', 'saml'] as const).map((protocol) => (
            <label className="checkbox sso-protocol__choice" key={protocol}>
              <input
                className="checkbox__input"
                type="radio"
                name="protocol"
                value={protocol}
                checked={values.protocol === protocol}
                onChange={() => change({ protocol })}
              />
              <span className="checkbox__label">
                {PROTOCOL_NAMES[protocol]}
                <span className="checkbox__hint">{PROTOCOL_HINTS[protocol]}</span>
              </span>
            </label>
          ))}
        </div>
        {savedProtocol !== null && values.protocol !== savedProtocol && (
          <p className="field__hint" id="sso-protocol-switch">
            Saving switches single sign-on to {PROTOCOL_NAMES[values.protocol]}: the saved{' '}
            {PROTOCOL_NAMES[savedProtocol]} settings are replaced.
          </p>
        )}
      </fieldset>
      {values.protocol === 'oidc' ? <OidcSettings {...fields} /> : <SamlSettings {...fields} />}
      <TextField
        label="Domains"
        name="domains"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="acme.example, acme.co.uk"
        hint="Your organization’s e-mail domains, separated by commas. Each works once a DNS record proves it is yours."
        value={values.domains}
        onChange={(event) => change({ domains: event.target.value })}
        aria-invalid={fields.invalid('domains')}
        aria-describedby={fields.describedBy}
      />
      <CheckboxField
        label="Require single sign-on"
        name="enforce"
        hint="Members with an address at a verified domain sign in through your provider only: not with a password or Google, and no password reset. People who join by their address join through your provider too."
        checked={values.enforce}
        onChange={(event) => change({ enforce: event.target.checked })}
      />
      <CheckboxField
        label="Trust your provider’s two-step sign-in"
        name="trustProviderMfa"
        hint="People signing in through your provider are not asked for a Chorus code or passkey: your provider must ask for a second factor itself. Other organizations that require two-step sign-in still ask."
        checked={values.trustProviderMfa}
        onChange={(event) => change({ trustProviderMfa: event.target.checked })}
      />
      {values.protocol === 'saml' && (
        <CheckboxField
          label="Allow sign-in started from your provider (IdP-initiated)"
          name="allowIdpInitiated"
          hint="Lets people open Chorus from their app tiles at your provider. Chorus then accepts sign-ins it did not ask for, which someone could abuse to sign a person in to the wrong account. Leave it off unless you need the tiles."
          checked={values.allowIdpInitiated}
          onChange={(event) => change({ allowIdpInitiated: event.target.checked })}
        />
      )}
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
