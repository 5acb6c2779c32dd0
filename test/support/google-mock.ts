// Google, played by oauth2-mock-server on 127.0.0.1: the settings that point the app at it, and
// what its userinfo endpoint answers next.
import { OAuth2Server } from 'oauth2-mock-server';
import type { Answer, Browser } from './browser.js';

export type GoogleUserInfo = { sub: string; email?: string; email_verified?: boolean };

export class GoogleMock {
  /** What /userinfo answers. */
  userInfo: GoogleUserInfo = { sub: 'google-subject-1' };

  private constructor(readonly server: OAuth2Server) {
    server.service.on('beforeUserinfo', (response: { body: unknown }) => {
      response.body = this.userInfo;
    });
  }

  static async start(): Promise<GoogleMock> {
    const server = new OAuth2Server();
    await server.issuer.keys.generate('RS256');
    await server.start(0, '127.0.0.1');
    return new GoogleMock(server);
  }

  get url(): string {
    return this.server.issuer.url ?? '';
  }

  get settings(): Record<string, string> {
    return {
      GOOGLE_CLIENT_ID: 'chorus-e2e',
      GOOGLE_CLIENT_SECRET: 'chorus-e2e-secret',
      GOOGLE_AUTHORIZATION_URL: `${this.url}/authorize`,
      GOOGLE_TOKEN_URL: `${this.url}/token`,
      GOOGLE_USERINFO_URL: `${this.url}/userinfo`,
    };
  }

  /**
   * Starts Google sign-in at `start` in the browser, lets "Google" consent as `userInfo`, and follows its redirect
   * back to the app's callback; answers the callback's answer.
   */
  async signIn(browser: Browser, userInfo: GoogleUserInfo, start = '/auth/go/'): Promise<Answer> {
    this.userInfo = userInfo;
    const started = await browser.open(start);
    if (started.status !== 302) throw new Error(`${start} answered ${started.status}, not a redirect to Google`);
    const consent = await fetch(started.location ?? '', { redirect: 'manual' });
    if (consent.status !== 302)
      throw new Error(`Google's consent answered ${consent.status}, not a redirect to the callback`);
    const callback = new URL(consent.headers.get('location') ?? '');
    return browser.open(`${callback.pathname}${callback.search}`);
  }

  /** The token endpoint refuses the next code exchange. */
  failNextTokenExchange(): void {
    this.server.service.once('beforeResponse', (response: { body: unknown; statusCode: number }) => {
      response.body = { error: 'invalid_grant' };
      response.statusCode = 400;
    });
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
