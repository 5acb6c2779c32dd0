// What the SSO form holds (both protocols' fields, so that switching back and forth loses nothing typed) and the
// change it sends: today's OpenID Connect body, or the SAML one with the metadata given once or kept.
import type { Organization, Problem, SamlSsoSettings, SsoProtocol, SsoSettings } from '../../api/contract';
import { fieldRefusal } from '../../api/use-command';
import type { SsoChange } from './api/sso-api';
import { METADATA_BOTH, type MetadataField } from './sso-refusals';

export type SsoFormValues = {
  protocol: SsoProtocol;
  issuer: string;
  clientId: string;
  clientSecret: string;
  metadataUrl: string;
  metadataXml: string;
  /** Read the saved metadata URL again though it is unchanged (the provider has a new certificate). */
  rereadMetadata: boolean;
  domains: string;
  enforce: boolean;
  trustProviderMfa: boolean;
  allowIdpInitiated: boolean;
};

/** What the protocol's own fields need from the form. */
export type SsoFieldsProps = {
  organization: Organization;
  settings: SsoSettings | null;
  values: SsoFormValues;
  change: (patch: Partial<SsoFormValues>) => void;
  invalid: (field: string) => true | undefined;
  describedBy: string | undefined;
};

/** A server of before SAML says no protocol: OpenID Connect. */
export const savedSaml = (settings: SsoSettings | null): SamlSsoSettings | null =>
  settings?.protocol === 'saml' ? settings : null;

export const PROTOCOL_NAMES: Record<SsoProtocol, string> = { oidc: 'OpenID Connect', saml: 'SAML 2.0' };

export function initialValues(settings: SsoSettings | null): SsoFormValues {
  const saml = savedSaml(settings);
  const oidc = settings !== null && settings.protocol !== 'saml' ? settings : null;
  return {
    protocol: saml === null ? 'oidc' : 'saml',
    issuer: oidc?.issuer ?? '',
    clientId: oidc?.clientId ?? '',
    clientSecret: '',
    metadataUrl: saml?.metadataUrl ?? '',
    metadataXml: '',
    rereadMetadata: false,
    domains: settings?.domains.join(', ') ?? '',
    enforce: settings?.enforce ?? false,
    trustProviderMfa: settings?.trustProviderMfa ?? false,
    allowIdpInitiated: saml?.allowIdpInitiated ?? false,
  };
}

/** "a.example, b.example" or one a line: the list the API takes. */
export const splitDomains = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== '');

/** The saved metadata URL, left as it was and not to be read again: the saved provider values stay. */
export const keepsSavedUrl = (values: SsoFormValues, saved: SamlSsoSettings | null): boolean =>
  saved !== null &&
  saved.metadataUrl !== null &&
  values.metadataUrl.trim() === saved.metadataUrl &&
  !values.rereadMetadata;

type Metadata = {
  given: { metadataUrl: string } | { metadataXml: string } | Record<string, never>;
  sent: MetadataField | null;
};

/** One of the URL and the XML; neither on an organization already on SAML (the server keeps what it read before). */
function metadataOf(values: SsoFormValues, saved: SamlSsoSettings | null): Metadata | Problem {
  const url = values.metadataUrl.trim();
  const xml = values.metadataXml.trim();
  if (url !== '' && xml !== '') return fieldRefusal(METADATA_BOTH, { reason: 'both' });
  if (xml !== '') return { given: { metadataXml: xml }, sent: 'metadataXml' };
  if (url !== '' && !keepsSavedUrl(values, saved)) return { given: { metadataUrl: url }, sent: 'metadataUrl' };
  if (saved !== null) return { given: {}, sent: null };
  return fieldRefusal(METADATA_BOTH, { reason: 'required' });
}

/** The change to send, and where the metadata went (the field to mark if it cannot be read); or why not to send it. */
export function ssoChange(
  values: SsoFormValues,
  settings: SsoSettings | null,
): { change: SsoChange; sent: MetadataField | null } | { refusal: Problem } {
  const common = {
    domains: splitDomains(values.domains),
    enforce: values.enforce,
    trustProviderMfa: values.trustProviderMfa,
  };
  if (values.protocol === 'oidc') {
    const secret = values.clientSecret.trim();
    const oidc = {
      issuer: values.issuer.trim(),
      clientId: values.clientId.trim(),
      ...common,
      ...(secret === '' ? {} : { clientSecret: secret }),
    };
    return { change: oidc, sent: null };
  }
  const metadata = metadataOf(values, savedSaml(settings));
  if ('code' in metadata) return { refusal: metadata };
  return {
    change: { protocol: 'saml', ...metadata.given, ...common, allowIdpInitiated: values.allowIdpInitiated },
    sent: metadata.sent,
  };
}
