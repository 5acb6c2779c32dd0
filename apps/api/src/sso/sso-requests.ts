// Request shapes of the SSO routes. Structure only; the domain checks meaning (issuer, domains, plan).
import { z } from 'zod';
import { MAX_SSO_DOMAINS } from '#domain';

export const configureSsoRequest = z.strictObject({
  issuer: z.string().max(2048),
  clientId: z.string().max(512),
  /** Absent: keep the secret already configured. Never answered, logged or recorded in clear. */
  clientSecret: z.string().min(1).max(1024).optional(),
  domains: z.array(z.string().max(2048)).max(MAX_SSO_DOMAINS * 2),
  enforce: z.boolean().optional(),
  /** The provider's MFA stands in for the second step at sign-ons through it; absent: off. */
  trustProviderMfa: z.boolean().optional(),
});

export type ConfigureSsoRequest = z.output<typeof configureSsoRequest>;

/** `GET /auth/sso?email=`: only the address is read; anything else in the query is ignored. */
export const ssoEmail = z.string().max(320);
