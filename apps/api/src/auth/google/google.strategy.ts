// Google sign-in through @nestjs/passport and passport-google-oauth20. Google's endpoints come from
// the configuration (GOOGLE_*_URL), so tests point them at oauth2-mock-server.
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { Strategy, type Profile } from 'passport-google-oauth20';
import type { StateStore } from 'passport-oauth2';
import type { GoogleAccount } from '#identity';
import type { Config } from '#config';
import type { SealedCookieStateStore } from './sealed-cookie-state.store.js';

export class GoogleStrategy extends PassportStrategy(Strategy, 'google') {
  private authenticator: passport.Authenticator | undefined;

  constructor(
    google: Config['google'] & { clientId: string; clientSecret: string },
    callbackURL: string,
    store: SealedCookieStateStore,
  ) {
    super({
      clientID: google.clientId,
      clientSecret: google.clientSecret,
      callbackURL,
      authorizationURL: google.authorizationUrl,
      tokenURL: google.tokenUrl,
      userProfileURL: google.userInfoUrl,
      scope: ['openid', 'email', 'profile'],
      store: store as unknown as StateStore,
    });
  }

  /** The Google account as the identity lib maps it; email_verified must be literally true. */
  validate(_accessToken: string, _refreshToken: string, profile: Profile): GoogleAccount {
    return {
      subject: profile.id,
      email: profile.emails?.[0]?.value,
      emailVerified: profile._json.email_verified === true,
    };
  }

  /** Its own passport instance, so that several apps in one process (tests) never share strategies. */
  getPassportInstance(): passport.Authenticator {
    this.authenticator ??= new passport.Passport();
    return this.authenticator;
  }
}
