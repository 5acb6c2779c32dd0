// What a SAML identity provider's values must look like before they are recorded (docs/directory.md, SAML single
// sign-on).
import type { SamlCertificate } from '../organization/state.js';

export const MAX_SAML_CERTIFICATES = 4;
export const MAX_SAML_ENTITY_ID_LENGTH = 1024;
const MAX_URL_LENGTH = 2048;
/** A 4096-bit RSA certificate is about 1.9 kB of DER; a chain in one KeyInfo is not a certificate. */
const MAX_CERTIFICATE_BASE64_LENGTH = 8192;

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export const isSamlEntityId = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length >= 1 &&
  value.length <= MAX_SAML_ENTITY_ID_LENGTH &&
  /^[\x21-\x7e]+$/.test(value);

/**
 * https (http only on loopback, for tests and local providers); a query is kept: some providers name the tenant in it.
 */
export function parseSamlSsoUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') return null;
  if (url.protocol === 'https:') return value;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname) ? value : null;
}

export function isSamlCertificate(value: unknown): value is SamlCertificate {
  if (typeof value !== 'object' || value === null) return false;
  const { certificate, sha256, notAfter } = value as Partial<SamlCertificate>;
  return (
    typeof certificate === 'string' &&
    certificate.length <= MAX_CERTIFICATE_BASE64_LENGTH &&
    /^[A-Za-z0-9+/]+={0,2}$/.test(certificate) &&
    typeof sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(sha256) &&
    typeof notAfter === 'string' &&
    !Number.isNaN(Date.parse(notAfter))
  );
}
