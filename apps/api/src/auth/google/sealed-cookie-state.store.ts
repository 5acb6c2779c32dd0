// passport-oauth2's state, turned on with our own store (its default keeps it in a server-side
// session we do not have): the nonce goes to Google, a signed cookie holding the same nonce and
// the sign-in intent (the page's token, the redirect) stays in the browser that started.
import type { Request } from 'express';
import type { GoogleSignInIntent, GoogleStateSeal } from '#identity';
import type { AuthCookies } from '../auth-cookies.js';

type Stored = (error: Error | null, state?: string) => void;
type Verified = (error: Error | null, ok: boolean, stateOrInfo?: GoogleSignInIntent | { message: string }) => void;

export class SealedCookieStateStore {
  constructor(
    private readonly seal: GoogleStateSeal,
    private readonly cookies: AuthCookies,
  ) {}

  // Four parameters: passport-oauth2 then hands over the `state` given to authenticate().
  store(request: Request, intent: GoogleSignInIntent, _meta: unknown, stored: Stored): void {
    const response = request.res;
    if (response === undefined) {
      stored(new Error('No response to set the Google state cookie on'));
      return;
    }
    const { nonce, cookieValue } = this.seal.seal(intent);
    this.cookies.setGoogleState(response, cookieValue);
    stored(null, nonce);
  }

  verify(request: Request, state: string, verified: Verified): void {
    const intent = this.seal.open(this.cookies.read(request, this.cookies.googleState), state);
    if (intent === undefined) verified(null, false, { message: 'The sign-in state does not belong to this browser.' });
    else verified(null, true, intent);
  }
}
