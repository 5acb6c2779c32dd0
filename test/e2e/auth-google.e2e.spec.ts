// Google sign-in (docs/api.md, Sign-in) against oauth2-mock-server playing Google.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { userStream } from '#domain';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { GoogleMock } from '../support/google-mock.js';

let google: GoogleMock;
let app: AuthApp;
let adaId: string;

beforeAll(async () => {
  google = await GoogleMock.start();
  app = await startAuthApp(google.settings);
  adaId = await app.createUser({ email: 'ada@example.com' });
  await app.createOrganization('Analytical Engines', { userId: adaId, email: 'ada@example.com' });
});
afterAll(async () => {
  await app.close();
  await google.stop();
});

/** The path and query of a URL the app built from PUBLIC_URL, to send to the running app. */
const onApp = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function signedInEvents(userId: string) {
  const stream = await app.store.readStream(userStream(userId));
  return stream.found ? stream.events.filter((event) => event.type === 'SignedIn') : [];
}

describe('GET /auth/go', () => {
  it("sends the browser to Google's consent page with a state bound to it by an HttpOnly cookie", async () => {
    const browser = app.browser();
    const answer = await browser.open('/auth/go/');
    expect(answer.status).toBe(302);
    const consent = new URL(answer.location ?? '');
    expect(`${consent.origin}${consent.pathname}`).toBe(`${google.url}/authorize`);
    expect(consent.searchParams.get('client_id')).toBe('chorus-e2e');
    expect(consent.searchParams.get('response_type')).toBe('code');
    expect(consent.searchParams.get('scope')).toBe('openid email profile');
    expect(consent.searchParams.get('redirect_uri')).toBe(`${app.config.publicUrl}/auth/google/callback`);
    expect(consent.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const stateCookie = answer.setCookies.find((cookie) => cookie.name === 'chorus_google_state');
    expect(stateCookie?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/', 'max-age': '600' });
    expect(stateCookie?.value).not.toContain(consent.searchParams.get('state'));
  });
});

describe('GET /auth/google/callback', () => {
  it('links a verified address to its user, opens a session and goes to the saved redirect', async () => {
    const browser = app.browser();
    const done = await google.signIn(
      browser,
      { sub: 'google-ada', email: 'Ada@Example.com', email_verified: true },
      '/auth/go/?redirect=%2Forganizations%3Ftab%3Dsites',
    );
    expect(done.status).toBe(302);
    expect(done.location).toBe('/organizations?tab=sites');
    expect(done.setCookies.find((cookie) => cookie.name === 'chorus_google_state')?.attributes.expires).toBeDefined();
    expect((await browser.get('/session')).body).toMatchObject({ user: { id: adaId } });
    // Next time the subject alone finds her, whatever address Google reports.
    const again = await google.signIn(app.browser(), {
      sub: 'google-ada',
      email: 'other@example.com',
      email_verified: false,
    });
    expect(again.location).toBe('/');
  });

  it('carries the page token from /auth/go/:token through Google to the recorded sign-in', async () => {
    const done = await google.signIn(app.browser(), { sub: 'google-ada' }, '/auth/go/page-token.42');
    expect(done.location).toBe('/');
    const last = (await signedInEvents(adaId)).at(-1);
    expect(last?.data).toMatchObject({ method: 'google' });
    expect(last?.metadata).toMatchObject({ googleSignInToken: 'page-token.42', actor: `user:${adaId}` });
  });

  it('sends a cancelled consent to /login?error=google', async () => {
    const browser = app.browser();
    const started = await browser.open('/auth/go/');
    const state = new URL(started.location ?? '').searchParams.get('state') ?? '';
    const cancelled = await browser.open(`/auth/google/callback?error=access_denied&state=${state}`);
    expect(cancelled.status).toBe(302);
    expect(cancelled.location).toBe('/login?error=google');
    expect(browser.cookie('chorus_session')).toBeUndefined();
  });

  it('sends a wrong state, or a callback in another browser, to /login?error=google', async () => {
    google.userInfo = { sub: 'google-ada' };
    const browser = app.browser();
    const started = await browser.open('/auth/go/');
    const consent = await fetch(started.location ?? '', { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location') ?? '');
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'not-the-state');
    expect((await browser.open(onApp(tampered.href))).location).toBe('/login?error=google');
    expect((await app.browser().open(onApp(callback.href))).location).toBe('/login?error=google');
    expect((await app.browser().open('/auth/google/callback?code=made-up')).location).toBe('/login?error=google');
  });

  it('sends a failed token exchange to /login?error=google', async () => {
    google.failNextTokenExchange();
    expect((await google.signIn(app.browser(), { sub: 'google-ada' })).location).toBe('/login?error=google');
  });

  it('sends a Google account that is no user, or an unverified address, to /login?error=account', async () => {
    expect(
      (
        await google.signIn(app.browser(), {
          sub: 'google-stranger',
          email: 'stranger@example.com',
          email_verified: true,
        })
      ).location,
    ).toBe('/login?error=account');
    await app.createUser({ email: 'unverified@example.com' });
    expect(
      (
        await google.signIn(app.browser(), {
          sub: 'google-unverified',
          email: 'unverified@example.com',
          email_verified: false,
        })
      ).location,
    ).toBe('/login?error=account');
  });

  it('sends a user without an organization to /login?error=account, without a session', async () => {
    const userId = await app.createUser({ email: 'loner@example.com' });
    const browser = app.browser();
    const done = await google.signIn(browser, {
      sub: 'google-loner',
      email: 'loner@example.com',
      email_verified: true,
    });
    expect(done.location).toBe('/login?error=account');
    expect(browser.cookie('chorus_session')).toBeUndefined();
    expect(await signedInEvents(userId)).toEqual([]);
  });

  it.each([
    ['https://evil.example'],
    ['//evil.example'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['/\t/evil.example'],
    ['/.//evil.example'],
    ['/..//evil.example'],
    ['/%2e//evil.example'],
    ['/%2F%2Fevil.example'],
  ])('redirects to / instead of %j', async (redirect) => {
    const done = await google.signIn(
      app.browser(),
      { sub: 'google-ada' },
      `/auth/go/?redirect=${encodeURIComponent(redirect)}`,
    );
    expect(done.status).toBe(302);
    expect(done.location).toBe('/');
  });
});

describe('Google sign-in without GOOGLE_CLIENT_ID', () => {
  it('sends /auth/go and the callback to /login?error=google', async () => {
    const unconfigured = await startAuthApp();
    try {
      for (const path of ['/auth/go/', '/auth/go/some-token', '/auth/google/callback?code=x&state=y']) {
        const answer = await unconfigured.browser().open(path);
        expect(answer.status).toBe(302);
        expect(answer.location).toBe('/login?error=google');
      }
    } finally {
      await unconfigured.close();
    }
  });
});
