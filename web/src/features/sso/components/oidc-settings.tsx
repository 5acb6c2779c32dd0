import { TextField } from '../../../components/ui/text-field';
import type { SsoFieldsProps } from '../sso-change';
import { ValuesForProvider } from './values-for-provider';

/**
 * The addresses to register with the provider, then its issuer and client; the secret, left empty, keeps the saved one.
 */
export function OidcSettings({ organization, settings, values, change, invalid, describedBy }: SsoFieldsProps) {
  const origin = window.location.origin;
  // Only an OpenID Connect configuration has a secret to keep.
  const secretSaved = settings !== null && settings.protocol !== 'saml';
  return (
    <>
      <ValuesForProvider
        title="Register Chorus with your provider"
        hint="As a web application (authorization code flow with PKCE), with these addresses."
        values={[
          { name: 'Redirect URI', value: `${origin}/auth/sso/callback` },
          { name: 'Sign-on link for your people', value: `${origin}/auth/sso/${encodeURIComponent(organization.id)}` },
        ]}
      />
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
        value={values.issuer}
        onChange={(event) => change({ issuer: event.target.value })}
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
          value={values.clientId}
          onChange={(event) => change({ clientId: event.target.value })}
          aria-invalid={invalid('clientId')}
          aria-describedby={describedBy}
        />
        <TextField
          label="Client secret"
          name="clientSecret"
          type="password"
          autoComplete="new-password"
          placeholder={secretSaved ? 'Saved (hidden)' : undefined}
          hint={
            secretSaved
              ? 'Leave empty to keep the saved secret. It is never shown.'
              : 'Stored encrypted; it is never shown again.'
          }
          value={values.clientSecret}
          onChange={(event) => change({ clientSecret: event.target.value })}
          aria-invalid={invalid('clientSecret')}
          aria-describedby={describedBy}
        />
      </div>
    </>
  );
}
