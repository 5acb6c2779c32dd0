import type { Organization } from '../../../api/contract';
import { ValuesForProvider } from './values-for-provider';

/** Chorus as a SAML service provider of this organization: its metadata is served at its entity ID. */
export function SamlServiceProviderValues({ organization }: { organization: Organization }) {
  const base = `${window.location.origin}/auth/saml/${encodeURIComponent(organization.id)}`;
  return (
    <ValuesForProvider
      title="Give your provider these values"
      hint="Add Chorus to your provider as a SAML application (in Entra ID, an enterprise application), with these values."
      values={[
        { name: 'Entity ID (Audience URI / Identifier)', value: `${base}/metadata` },
        { name: 'Single sign-on URL (ACS / Reply URL)', value: `${base}/acs` },
        {
          name: 'Metadata URL',
          value: `${base}/metadata`,
          hint: 'For providers that read these settings from an address instead.',
        },
        {
          name: 'Name ID format',
          value: 'EmailAddress',
          hint: 'The person’s e-mail address as the Name ID, or in an attribute named email.',
        },
      ]}
    />
  );
}
