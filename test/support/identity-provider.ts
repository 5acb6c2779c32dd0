// An organization's OpenID provider, played by oauth2-mock-server on 127.0.0.1: discovery, JWKS, the
// authorization and token endpoints. What the next id_token says is set per test (`idToken`), through
// the server's beforeTokenSigning hook; `forgeNextIdToken` swaps in one signed by a key not in its JWKS.
import { createSign, generateKeyPairSync } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import type { Browser, Answer } from './browser.js';

type Claims = Record<string, unknown>;
type MutableToken = { header: Record<string, unknown>; payload: Claims };

export class IdentityProvider {
  /** Claims merged into the next id_tokens (the mock's own: iss, aud = the client id, nonce, iat, exp, sub). */
  idToken: Claims = {};

  private constructor(readonly server: OAuth2Server) {
    server.service.on('beforeTokenSigning', (token: MutableToken) => {
      // The access token carries a scope; the id_token does not.
      if (token.payload.scope === undefined) Object.assign(token.payload, this.idToken);
    });
  }

  static async start(): Promise<IdentityProvider> {
    const server = new OAuth2Server();
    await server.issuer.keys.generate('RS256');
    await server.start(0, '127.0.0.1');
    return new IdentityProvider(server);
  }

  get issuer(): string {
    return this.server.issuer.url ?? '';
  }

  /** The person the next sign-on signs in as (`email_verified` true unless said otherwise). */
  signsIn(email: string, claims: Claims = {}): void {
    this.idToken = { sub: `idp-${email}`, email, email_verified: true, ...claims };
  }

  /** The next authorization answers the browser with this error instead of a code (e.g. access_denied). */
  refuseNextAuthorization(error: string): void {
    this.server.service.once('beforeAuthorizeRedirect', ({ url }: { url: URL }) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', error);
    });
  }

  /**
   * The next token response carries an id_token with the very claims the provider issued and its key id,
   * re-signed by a key of the attacker's: only the signature, checked against the issuer's JWKS, tells.
   */
  forgeNextIdToken(): void {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.server.service.once('beforeResponse', (response: { body: Record<string, unknown> }) => {
      const [header = '', payload = ''] = String(response.body.id_token).split('.');
      const signingInput = `${header}.${payload}`;
      const signature = createSign('RSA-SHA256').update(signingInput).sign(privateKey).toString('base64url');
      response.body.id_token = `${signingInput}.${signature}`;
    });
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}

/** The path and query of a URL the app built from PUBLIC_URL, to send to the running app. */
export const onApp = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/**
 * Starts a sign-on at `start` in the browser, lets the provider answer (its authorize endpoint signs in at
 * once), and follows its redirect back to the app's callback. Answers the callback's answer and the URL.
 */
export async function viaProvider(browser: Browser, start: string): Promise<{ answer: Answer; callback: string }> {
  let started = await browser.open(start);
  // GET /auth/sso?email= first names the organization's start.
  if (started.status === 302 && started.location?.startsWith('/auth/sso/'))
    started = await browser.open(started.location);
  if (started.status !== 302 || started.location === null || started.location.startsWith('/'))
    return { answer: started, callback: '' };
  const authorized = await fetch(started.location, { redirect: 'manual' });
  const callback = authorized.headers.get('location') ?? '';
  return { answer: await browser.open(onApp(callback)), callback };
}
