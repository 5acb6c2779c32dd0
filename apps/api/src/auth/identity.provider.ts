import type { FactoryProvider } from '@nestjs/common';
import { IdentityClock } from '../config/app-clock.js';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '#config';
import { EVENT_STORE, type EventStore } from '#event-store';
import { createIdentity, createMailer, loadNodeName, loadSessionSecret, type Identity } from '#identity';
import { PINO } from '../logging/pino.js';

/** The identity lib's services (users, sign-in, sessions, resets, XSRF), one per process. */
export const IDENTITY = Symbol('IDENTITY');

export { IdentityClock } from '../config/app-clock.js';

export const identityProvider: FactoryProvider<Identity> = {
  provide: IDENTITY,
  inject: [CONFIG, EVENT_STORE, PINO, IdentityClock],
  useFactory: (config: Config, eventStore: EventStore, pino: Logger, clock: IdentityClock): Identity => {
    const logger = pino.child({ component: 'identity' });
    return createIdentity({
      eventStore,
      sessionSecret: loadSessionSecret({ configured: config.sessionSecret, dataDir: config.dataDir, production: config.nodeEnv === 'production' }),
      mailer: createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        dataDir: config.dataDir,
        logger,
        logMessageText: config.nodeEnv !== 'production',
      }),
      logger,
      publicUrl: config.publicUrl,
      productName: config.productName,
      nodeName: loadNodeName(config.dataDir),
      mailClaimMs: config.mailClaimMs,
      clock,
      ...(config.ssoSecretKeys === undefined ? {} : { ssoSecretKeys: config.ssoSecretKeys }),
      allowHttpSsoIssuers: config.nodeEnv !== 'production',
      publicSsoProvidersOnly: config.nodeEnv === 'production',
      ...(config.passwordHashesAtOnce === undefined ? {} : { passwordHashesAtOnce: config.passwordHashesAtOnce }),
    });
  },
};
