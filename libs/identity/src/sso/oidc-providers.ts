// Organizations' OpenID providers through openid-client (a maintained client, no hand-written
// token checks): discovery, the authorization URL (code flow, PKCE S256, state, nonce), and the callback,
// whose id_token is checked for its signature by the issuer's JWKS (non-repudiation checks on), iss, aud,
// exp and nonce. Discovered configurations are kept per node for an hour, keyed by the settings.
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

export type OidcProviderSettings = { issuer: string; clientId: string; clientSecret: string };

/** The claims of a verified id_token that sign-on uses. */
export type VerifiedIdToken = { subject: string; issuer: string; email: string | undefined; emailVerified: boolean };

/** Why a provider could not be used or its answer was refused: safe to log, never holds a secret. */
export class OidcProviderError extends Error {
  constructor(
    readonly reason: 'discovery-failed' | 'provider-error' | 'token-refused',
    message: string,
  ) {
    super(message);
    this.name = 'OidcProviderError';
  }
}

export type OidcProvidersOptions = {
  /** http:// issuers (on loopback addresses, the domain's rule) are accepted: never in production. */
  allowHttpIssuers: boolean;
  /** Per HTTP call to the provider. */
  timeoutSeconds?: number;
  /** How long a discovered configuration is reused. */
  cacheMs?: number;
};

const maxCached = 1_000;

export class OidcProviders {
  private readonly cache = new Map<string, { configuration: Promise<oidc.Configuration>; until: number }>();

  constructor(private readonly options: OidcProvidersOptions) {}

  /** Whether the issuer's scheme is allowed here (https, or http outside production). */
  allows(issuer: string): boolean {
    return issuer.startsWith('https://') || (this.options.allowHttpIssuers && issuer.startsWith('http://'));
  }

  /** The provider's configuration by OIDC discovery; OidcProviderError('discovery-failed') when it cannot be had. */
  async discover(settings: OidcProviderSettings): Promise<oidc.Configuration> {
    const key = createHash('sha256').update(JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret])).digest('base64url');
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && cached.until > now) return cached.configuration;
    const configuration = this.discoverNow(settings);
    this.cache.delete(key);
    if (this.cache.size >= maxCached) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { configuration, until: now + (this.options.cacheMs ?? 3_600_000) });
    // A failure is not kept: the next attempt asks the provider again.
    configuration.catch(() => this.cache.delete(key));
    return configuration;
  }

  /** Where to send the browser: the code flow with PKCE (S256), state and nonce. */
  authorizationUrl(configuration: oidc.Configuration, request: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    return oidc.calculatePKCECodeChallenge(request.codeVerifier).then((challenge) =>
      oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: request.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: request.state,
        nonce: request.nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
  }

  /**
   * Redeems the code of the callback URL and verifies the id_token; OidcProviderError('provider-error')
   * for an error the provider sent back, ('token-refused') for anything that fails a check.
   */
  async verifyCallback(
    configuration: oidc.Configuration,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<VerifiedIdToken> {
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError) {
        throw new OidcProviderError('provider-error', `The provider answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
      }
      throw new OidcProviderError('token-refused', describe(error));
    }
    if (claims === undefined) throw new OidcProviderError('token-refused', 'No id_token came with the tokens');
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    return { subject: claims.sub, issuer: claims.iss, email, emailVerified: claims.email_verified === true };
  }

  private async discoverNow({ issuer, clientId, clientSecret }: OidcProviderSettings): Promise<oidc.Configuration> {
    if (!this.allows(issuer)) throw new OidcProviderError('discovery-failed', 'Only an https:// issuer is accepted here');
    const execute = [oidc.enableNonRepudiationChecks, ...(issuer.startsWith('http://') ? [oidc.allowInsecureRequests] : [])];
    try {
      const configuration = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
        execute,
        timeout: this.options.timeoutSeconds ?? 10,
      });
      const metadata = configuration.serverMetadata();
      if (metadata.jwks_uri === undefined) throw new OidcProviderError('discovery-failed', 'The discovery document names no jwks_uri');
      if (metadata.code_challenge_methods_supported !== undefined && !metadata.code_challenge_methods_supported.includes('S256')) {
        throw new OidcProviderError('discovery-failed', 'The provider does not support PKCE with S256');
      }
      return configuration;
    } catch (error) {
      if (error instanceof OidcProviderError) throw error;
      throw new OidcProviderError('discovery-failed', describe(error));
    }
  }
}

/** The library's message and code, without the request (which may carry the client secret in its body). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'Unknown error';
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}${cause}`;
}
