// Which field of the SSO form a refusal is about, and the SAML metadata's refusals in the customer's words
// (the others are the console's: api/refusals.ts).
import type { Problem } from '../../api/contract';

/** Where the SAML metadata was given in the refused change: the field to mark when the server could not read it. */
export type MetadataField = 'metadataUrl' | 'metadataXml';

/** 'metadata': the URL and the XML both (given together, or neither). */
export const METADATA_BOTH = 'metadata';

const DOMAIN_CODES = ['SSO_DOMAIN_TAKEN', 'SSO_DOMAIN_PUBLIC', 'INVALID_HOSTNAME', 'DUPLICATE'];

const pointedField = (problem: Problem): string | null => {
  const errors = Array.isArray(problem.errors) ? (problem.errors as { pointer?: unknown }[]) : [];
  const pointer = errors.find((error) => typeof error.pointer === 'string')?.pointer as string | undefined;
  return pointer?.replace(/^#\//, '').split('/')[0] ?? null;
};

/** The provider values read from the metadata (idp.entityId, idp.certificates...) are the metadata's. */
const isProviderValue = (field: string | null): boolean => field === 'idp' || (field?.startsWith('idp.') ?? false);

export function refusedField(problem: Problem | null, sent: MetadataField | null): string | null {
  if (problem === null) return null;
  if (problem.code === 'SSO_DISCOVERY_FAILED') return 'issuer';
  if (problem.code === 'SSO_SECRET_UNREADABLE') return 'clientSecret';
  if (problem.code === 'SSO_METADATA_INVALID') return sent ?? 'metadataUrl';
  if (DOMAIN_CODES.includes(problem.code)) return 'domains';
  const field = pointedField(problem);
  return isProviderValue(field) ? (sent ?? 'metadataUrl') : field;
}

/** Whether the field is the one refused (the two metadata fields together when both are). */
export const isRefused = (refused: string | null, field: string): boolean =>
  refused === field || (refused === METADATA_BOTH && (field === 'metadataUrl' || field === 'metadataXml'));

const MISSING = 'Give your provider’s metadata URL, or paste its metadata XML.';

/** Words of their own for the metadata fields' refusals; null: the console's words for it. */
export function metadataRefusal(problem: Problem): string | null {
  if (problem.code !== 'VALIDATION_FAILED') return null;
  const field = pointedField(problem);
  if (field === METADATA_BOTH)
    return problem.reason === 'both'
      ? 'Give the metadata URL or the metadata XML, not both: empty one of them.'
      : MISSING;
  if (field === 'metadataXml')
    return problem.reason === 'too_long'
      ? 'The metadata XML is too long: paste only your provider’s metadata.'
      : MISSING;
  if (field === 'metadataUrl')
    return problem.reason === 'required'
      ? MISSING
      : 'Enter the metadata URL your provider gives, starting with https://.';
  if (isProviderValue(field)) return `Chorus cannot use your provider’s metadata. ${problem.detail}`.trim();
  return null;
}
