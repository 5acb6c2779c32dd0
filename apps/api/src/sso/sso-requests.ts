// Request shapes of the SSO routes. Structure only; the domain checks meaning (issuer, domains, plan).
import { z } from 'zod';
import { MAX_SSO_DOMAINS } from '#domain';
import { MAX_SAML_METADATA_BYTES } from '#identity';

const domains = z.array(z.string().max(2048)).max(MAX_SSO_DOMAINS * 2);

/** OpenID Connect, the default protocol (`protocol` may be left out). */
const oidcRequest = z.strictObject({
  protocol: z.literal('oidc').optional(),
  issuer: z.string().max(2048),
  clientId: z.string().max(512),
  /** Absent: keep the secret already configured. Never answered, logged or recorded in clear. */
  clientSecret: z.string().min(1).max(1024).optional(),
  domains,
  enforce: z.boolean().optional(),
  /** The provider's MFA stands in for the second step at sign-ons through it; absent: off. */
  trustProviderMfa: z.boolean().optional(),
});

/** SAML 2.0: the identity provider's metadata, pasted or at a URL; neither keeps the provider already saved. */
const samlRequest = z
  .strictObject({
    protocol: z.literal('saml'),
    metadataXml: z.string().min(1).max(MAX_SAML_METADATA_BYTES).optional(),
    metadataUrl: z.string().min(1).max(2048).optional(),
    domains,
    enforce: z.boolean().optional(),
    trustProviderMfa: z.boolean().optional(),
    /** Responses the identity provider sends unasked (its app tiles) sign in, landing at /app; absent: refused. */
    allowIdpInitiated: z.boolean().optional(),
  })
  .refine((body) => body.metadataXml === undefined || body.metadataUrl === undefined, {
    message: 'Give metadataXml or metadataUrl, not both.',
    path: ['metadataUrl'],
  });

export const configureSsoRequest = z.discriminatedUnion('protocol', [oidcRequest, samlRequest]);

export type ConfigureSsoRequest = z.output<typeof configureSsoRequest>;
export type ConfigureOidcSsoRequest = z.output<typeof oidcRequest>;
export type ConfigureSamlSsoRequest = z.output<typeof samlRequest>;

/** `GET /auth/sso?email=`: only the address is read; anything else in the query is ignored. */
export const ssoEmail = z.string().max(320);
