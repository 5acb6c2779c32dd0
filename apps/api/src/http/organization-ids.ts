import { z } from 'zod';

/**
 * Organization ids at the edge (HTTP, command line): lower-case letters, digits and '-', starting with a
 * letter or digit, so that a uuid or a slug like `acme-corp` fits and every id is safe in a URL and a stream name.
 */
export const organizationIdSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    'must be 1 to 63 lower-case letters, digits or -, starting with a letter or digit',
  );

/** Ids of members and sites, as the domain accepts them (RFC 3986 unreserved characters). */
export const memberOrSiteIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{1,128}$/, 'must be 1 to 128 letters, digits or . _ ~ -');
