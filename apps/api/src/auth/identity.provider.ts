import type { FactoryProvider } from '@nestjs/common';
import { AppClock } from '../config/app-clock.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '#config';
import type { PersonalKeys } from '#application';
import { EVENT_STORE, PERSONAL_KEYS, type EventStore } from '#event-store';
import {
  createIdentity,
  createMailer,
  loadNodeName,
  loadSessionSecret,
  openIdentifierNames,
  type Identity,
} from '#identity';
import { PINO } from '../logging/pino.js';

/** The identity lib's services (users, sign-in, sessions, resets, XSRF), one per process. */
export const IDENTITY = Symbol('IDENTITY');

export const identityProvider: FactoryProvider<Promise<Identity>> = {
  provide: IDENTITY,
  inject: [CONFIG, RUN_MODE, EVENT_STORE, PERSONAL_KEYS, PINO, AppClock],
  useFactory: async (
    config: Config,
    runMode: RunMode,
    eventStore: EventStore,
    keys: PersonalKeys,
    pino: Logger,
    clock: AppClock,
  ): Promise<Identity> => {
    const logger = pino.child({ component: 'identity' });
    const identifierNames = await openIdentifierNames(keys, eventStore);
    // Said when a server starts; a command line call on the same store says nothing of it (its output is a tool's
    // input).
    if (identifierNames.readsLegacyNames && runMode === 'server') {
      logger.warn(
        'This store was written before personal data was sealed: it is read as it is; `chorus store:seal-personal-data` will seal it (docs/privacy.md)',
      );
    }
    return createIdentity({
      eventStore,
      identifierNames,
      sessionSecret: loadSessionSecret({
        configured: config.sessionSecret,
        dataDir: config.dataDir,
        production: config.nodeEnv === 'production',
      }),
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
