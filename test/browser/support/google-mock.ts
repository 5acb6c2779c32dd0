// oauth2-mock-server standing in for Google: it signs in whichever account the test chose, at once, with no consent
// page.
import { OAuth2Server, type MutableRedirectUri, type MutableResponse, type MutableToken } from 'oauth2-mock-server';

export type GoogleAccountClaims = { sub: string; email: string; email_verified: boolean };

export type GoogleMock = {
  /** The settings that point the app's Google sign-in here. */
  settings: Record<string, string>;
  /** e.g. http://127.0.0.1:41234, no trailing slash. */
  origin: string;
  /** The account the next sign-ins come back as. */
  signInAs(account: GoogleAccountClaims): void;
  /** The next sign-ins come back as if the user pressed Cancel on Google's consent page. */
  denyConsent(): void;
  close(): Promise<void>;
};

export const googleClientId = 'chorus-browser-tests.apps.googleusercontent.com';

export async function startGoogleMock(): Promise<GoogleMock> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let account: GoogleAccountClaims | undefined;
  let denied = false;

  server.service.on('beforeAuthorizeRedirect', ({ url }: MutableRedirectUri) => {
    if (!denied) return;
    url.searchParams.delete('code');
    url.searchParams.set('error', 'access_denied');
  });
  server.service.on('beforeTokenSigning', (token: MutableToken) => {
    if (account !== undefined)
      Object.assign(token.payload, { sub: account.sub, email: account.email, email_verified: account.email_verified });
  });
  server.service.on('beforeUserinfo', (response: MutableResponse) => {
    if (account !== undefined) response.body = { ...account, name: account.email.split('@')[0] };
  });

  const origin = new URL(server.issuer.url ?? '').origin;
  return {
    origin,
    settings: {
      GOOGLE_CLIENT_ID: googleClientId,
      GOOGLE_CLIENT_SECRET: 'browser-tests-client-secret',
      GOOGLE_AUTHORIZATION_URL: `${origin}/authorize`,
      GOOGLE_TOKEN_URL: `${origin}/token`,
      GOOGLE_USERINFO_URL: `${origin}/userinfo`,
    },
    signInAs(next) {
      account = next;
      denied = false;
    },
    denyConsent() {
      denied = true;
    },
    close: () => server.stop(),
  };
}
