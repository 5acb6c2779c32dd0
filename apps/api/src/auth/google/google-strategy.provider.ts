import type { FactoryProvider } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import type { Identity } from '#identity';
import { AuthCookies } from '../auth-cookies.js';
import { IDENTITY } from '../identity.provider.js';
import { GoogleStrategy } from './google.strategy.js';
import { SealedCookieStateStore } from './sealed-cookie-state.store.js';

/** The Google strategy, or null when GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET are not set. */
export const GOOGLE_STRATEGY = Symbol('GOOGLE_STRATEGY');

export const googleStrategyProvider: FactoryProvider<GoogleStrategy | null> = {
  provide: GOOGLE_STRATEGY,
  inject: [CONFIG, IDENTITY, AuthCookies],
  useFactory: (config: Config, identity: Identity, cookies: AuthCookies): GoogleStrategy | null => {
    const { clientId, clientSecret } = config.google;
    if (clientId === undefined || clientSecret === undefined) return null;
    return new GoogleStrategy(
      { ...config.google, clientId, clientSecret },
      `${config.publicUrl}/auth/google/callback`,
      new SealedCookieStateStore(identity.googleState, cookies),
    );
  },
};
