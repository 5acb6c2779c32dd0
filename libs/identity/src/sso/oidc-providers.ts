// Through openid-client: no hand-written token checks. A failed discovery is kept a minute, so that anonymous
// sign-on starts against a broken or hostile issuer cost it one discovery a minute at most.
import { createHash } from 'node:crypto';
import type { Agent } from 'node:http';
import type { LookupFunction } from 'node:net';
import * as oidc from 'openid-client';
import { systemClock, type Clock } from '../clock.js';
import {
  checkPublicDestination,
  createProviderFetch,
  ProviderFetchError,
  type ProviderFetch,
} from './provider-fetch.js';

export type OidcProviderSettings = { issuer: string; clientId: string; clientSecret: string };

export type VerifiedIdToken = { subject: string; issuer: string; email: string | undefined; emailVerified: boolean };

/** Safe to log: never holds a secret. */
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
  /** Never in production. */
  allowHttpIssuers: boolean;
  /** Production: the issuer and every endpoint it names are reached at public addresses only. */
  publicAddressesOnly: boolean;
  clock?: Clock;
  /** Per HTTP call, connecting and reading included. */
  timeoutMs?: number;
  cacheMs?: number;
  failureCacheMs?: number;
  lookup?: LookupFunction;
  agent?: Agent;
};

const maxCached = 1_000;
const configureRetryMs = 5_000;
/** Per organization's provider; more are refused, not queued. */
const maxCallsAtOnce = 8;

type Discovery = {
  fingerprint: string;
  configuration: Promise<oidc.Configuration>;
  startedAt: number;
  /** Infinity while discovery runs (every caller shares it). */
  until: number;
  failed: boolean;
  callsAtOnce: number;
  jwksUri?: string;
};

export class OidcProviders {
  private readonly discoveries = new Map<string, Discovery>();
  private readonly fetch: ProviderFetch;

  constructor(private readonly options: OidcProvidersOptions) {
    this.fetch = createProviderFetch({
      publicAddressesOnly: options.publicAddressesOnly,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      ...(options.agent === undefined ? {} : { agent: options.agent }),
    });
  }

  allows(issuer: string): boolean {
    return issuer.startsWith('https://') || (this.options.allowHttpIssuers && issuer.startsWith('http://'));
  }

  /** `retryFailed`: an owner saving settings may ask again after a failure (at most every configureRetryMs). */
  async discover(
    organizationId: string,
    settings: OidcProviderSettings,
    { retryFailed = false } = {},
  ): Promise<oidc.Configuration> {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]))
      .digest('base64url');
    const now = this.now();
    const known = this.discoveries.get(organizationId);
    const retry = retryFailed && known?.failed === true && now - known.startedAt >= configureRetryMs;
    if (known?.fingerprint === fingerprint && known.until > now && !retry) return known.configuration;
    // Registered before it settles, so that every caller meanwhile shares this one discovery.
    const discovery: Discovery = {
      fingerprint,
      startedAt: now,
      until: Infinity,
      failed: false,
      callsAtOnce: 0,
      configuration: new Promise(() => undefined),
    };
    discovery.configuration = this.discoverNow(settings, discovery);
    discovery.configuration.then(
      () => (discovery.until = this.now() + (this.options.cacheMs ?? 3_600_000)),
      () => this.failed(discovery),
    );
    this.discoveries.delete(organizationId);
    if (this.discoveries.size >= maxCached) this.discoveries.delete(this.discoveries.keys().next().value as string);
    this.discoveries.set(organizationId, discovery);
    return discovery.configuration;
  }

  authorizationUrl(
    configuration: oidc.Configuration,
    request: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
  ): Promise<URL> {
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
        throw new OidcProviderError(
          'provider-error',
          `The provider answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`,
        );
      }
      throw new OidcProviderError('token-refused', describe(error));
    }
    if (claims === undefined) throw new OidcProviderError('token-refused', 'No id_token came with the tokens');
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    return { subject: claims.sub, issuer: claims.iss, email, emailVerified: claims.email_verified === true };
  }

  private async discoverNow(
    { issuer, clientId, clientSecret }: OidcProviderSettings,
    discovery: Discovery,
  ): Promise<oidc.Configuration> {
    if (!this.allows(issuer))
      throw new OidcProviderError('discovery-failed', 'Only an https:// issuer is accepted here');
    const execute = [
      oidc.enableNonRepudiationChecks,
      ...(issuer.startsWith('http://') ? [oidc.allowInsecureRequests] : []),
    ];
    try {
      const configuration = await oidc.discovery(
        new URL(issuer),
        clientId,
        undefined,
        oidc.ClientSecretBasic(clientSecret),
        {
          execute,
          [oidc.customFetch]: this.fetchFor(discovery),
        },
      );
      const metadata = configuration.serverMetadata();
      if (metadata.jwks_uri === undefined)
        throw new OidcProviderError('discovery-failed', 'The discovery document names no jwks_uri');
      discovery.jwksUri = metadata.jwks_uri;
      if (
        metadata.code_challenge_methods_supported !== undefined &&
        !metadata.code_challenge_methods_supported.includes('S256')
      ) {
        throw new OidcProviderError('discovery-failed', 'The provider does not support PKCE with S256');
      }
      if (this.options.publicAddressesOnly) {
        // Refused now rather than at the first sign-on; provider-fetch.ts checks them again at each call.
        const named = [metadata.jwks_uri, metadata.token_endpoint, metadata.userinfo_endpoint].filter(
          (url) => url !== undefined,
        );
        for (const url of named) await checkPublicDestination(url, this.options.lookup);
      }
      return configuration;
    } catch (error) {
      if (error instanceof OidcProviderError) throw error;
      throw new OidcProviderError('discovery-failed', describe(error));
    }
  }

  /** A failed JWKS fetch fails the discovery for a while. */
  private fetchFor(discovery: Discovery): ProviderFetch {
    return async (url, init) => {
      if (discovery.callsAtOnce >= maxCallsAtOnce)
        throw new ProviderFetchError(`Already ${maxCallsAtOnce} calls to this provider at once`);
      discovery.callsAtOnce += 1;
      try {
        const answer = await this.fetch(url, init);
        if (!answer.ok && url === discovery.jwksUri) this.failed(discovery, `The JWKS answered ${answer.status}`);
        return answer;
      } catch (error) {
        if (url === discovery.jwksUri) this.failed(discovery, `The JWKS could not be fetched: ${describe(error)}`);
        throw error;
      } finally {
        discovery.callsAtOnce -= 1;
      }
    };
  }

  /** `why` replaces the configuration of a discovery that had succeeded. */
  private failed(discovery: Discovery, why?: string): void {
    if (why !== undefined && !discovery.failed) {
      discovery.configuration = Promise.reject(new OidcProviderError('discovery-failed', why));
      discovery.configuration.catch(() => undefined);
    }
    discovery.failed = true;
    discovery.until = this.now() + (this.options.failureCacheMs ?? 60_000);
  }

  private now(): number {
    return (this.options.clock ?? systemClock).now().getTime();
  }
}

/** The library's message and code, without the request (which may carry the client secret in its body). */
function describe(error: unknown): string {
  // Duck-typed: Node's own errors may come from another realm than this module's Error.
  type Described = { code?: unknown; message?: unknown; cause?: { message?: unknown } };
  const { code, message, cause } = (typeof error === 'object' && error !== null ? error : {}) as Described;
  if (typeof message !== 'string') return 'Unknown error';
  return `${typeof code === 'string' ? `${code}: ` : ''}${message}${typeof cause?.message === 'string' ? ` (${cause.message})` : ''}`;
}
