// Configuration is read and validated once at start-up (API.md, Configuration). A wrong value
// stops the process with a message naming the setting.
import { z } from 'zod';
import { CATALOGUE_PRODUCT_KEYS, type CatalogueProductKey } from '#domain';
import { eventStoreConnectionStringProblems } from './eventstore-connection-string.js';

const booleanSetting = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: z.string().min(1).default('./data'),
  // Checked in loadConfig against the client's grammar and choices (eventstore-connection-string.ts).
  EVENTSTORE_CONNECTION_STRING: optionalText,
  PRODUCT_NAME: z.string().min(1).max(60).default('Chorus'),
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().min(3).default('Chorus <no-reply@chorus.localhost>'),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://www.googleapis.com/oauth2/v4/token'),
  GOOGLE_USERINFO_URL: z.url().default('https://www.googleapis.com/oauth2/v3/userinfo'),
  GOOGLE_SIGN_IN_TOKEN: z.string().max(200).regex(/^[A-Za-z0-9._~-]*$/).default(''),
  BILLING_WEBHOOK_SECRET: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  PLAN_PAYMENT_PROVIDER_IDS: z.string().default(''),
  PLAN_LINKED_PRODUCT_IDS: z.string().default(''),
  SEED_DEMO: optionalText.pipe(booleanSetting.optional()),
  SENTRY_DSN: optionalText.pipe(z.url().optional()),
  RELEASE_ID: z.string().default('dev'),
  PROJECTIONS: z.enum(['inline', 'off']).default('inline'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Origin users see, without trailing slash. */
  publicUrl: string;
  dataDir: string;
  eventStoreConnectionString: string | undefined;
  productName: string;
  /** undefined: the server generates one and keeps it under DATA_DIR (never in production). */
  sessionSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    authorizationUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
    /** The token the sign-in page appends to /auth/go/ (seed section 4), default empty. */
    signInToken: string;
  };
  billingWebhookSecret: string | undefined;
  /** PLAN_PAYMENT_PROVIDER_IDS split on ',' (entries trimmed; empty entries kept as ''). */
  planPaymentProviderIds: string[];
  /** PLAN_LINKED_PRODUCT_IDS: further product ids per plan (`chorus:teams`) or add-on (`feedback`). */
  planLinkedProductIds: Partial<Record<CatalogueProductKey, string[]>>;
  seedDemo: boolean;
  sentryDsn: string | undefined;
  releaseId: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** inline: this process runs the projector; off: another process sharing DATA_DIR does (`chorus projector:run`). */
  projections: 'inline' | 'off';
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(environment: Record<string, string | undefined>): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  const problems: string[] = [];
  if (production && !env.SESSION_SECRET) problems.push('SESSION_SECRET: required when NODE_ENV=production');
  if (production && !env.PUBLIC_URL) problems.push('PUBLIC_URL: required when NODE_ENV=production');
  if (env.EVENTSTORE_CONNECTION_STRING !== undefined) {
    for (const problem of eventStoreConnectionStringProblems(env.EVENTSTORE_CONNECTION_STRING)) problems.push(`EVENTSTORE_CONNECTION_STRING: ${problem}`);
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: set both or neither');
  }
  const planPaymentProviderIds = env.PLAN_PAYMENT_PROVIDER_IDS === '' ? [] : env.PLAN_PAYMENT_PROVIDER_IDS.split(',').map((id) => id.trim());
  const planLinkedProductIds = parseLinkedProductIds(env.PLAN_LINKED_PRODUCT_IDS, planPaymentProviderIds, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir: env.DATA_DIR,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING,
    productName: env.PRODUCT_NAME,
    sessionSecret: env.SESSION_SECRET,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    google: {
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      authorizationUrl: env.GOOGLE_AUTHORIZATION_URL,
      tokenUrl: env.GOOGLE_TOKEN_URL,
      userInfoUrl: env.GOOGLE_USERINFO_URL,
      signInToken: env.GOOGLE_SIGN_IN_TOKEN,
    },
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET,
    planPaymentProviderIds,
    planLinkedProductIds,
    seedDemo: env.SEED_DEMO ?? !production,
    sentryDsn: env.SENTRY_DSN,
    releaseId: env.RELEASE_ID,
    logLevel: env.LOG_LEVEL,
    projections: env.PROJECTIONS,
  };
}

/**
 * `key=productId` entries separated by commas, a key repeated for several products, e.g.
 * `chorus:teams=prod_teams,chorus:teams=prod_teams_yearly,feedback=prod_feedback`. A product id may
 * sell one thing only, so it may not repeat, nor be one of PLAN_PAYMENT_PROVIDER_IDS.
 */
function parseLinkedProductIds(setting: string, paymentProviderIds: readonly string[], problems: string[]): Partial<Record<CatalogueProductKey, string[]>> {
  const linked: Partial<Record<CatalogueProductKey, string[]>> = {};
  const seen = new Set(paymentProviderIds.filter((id) => id !== ''));
  for (const entry of setting.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const [key, productId, ...rest] = entry.split('=').map((part) => part.trim());
    if (!CATALOGUE_PRODUCT_KEYS.includes(key as CatalogueProductKey) || !productId || rest.length > 0) {
      problems.push(`PLAN_LINKED_PRODUCT_IDS: "${entry}" is not <plan or add-on>=<product id> (keys: ${CATALOGUE_PRODUCT_KEYS.join(', ')})`);
      continue;
    }
    if (seen.has(productId)) {
      problems.push(`PLAN_LINKED_PRODUCT_IDS: product id "${productId}" already sells something else`);
      continue;
    }
    seen.add(productId);
    (linked[key as CatalogueProductKey] ??= []).push(productId);
  }
  return linked;
}

/** Nest injection token for the validated Config. */
export const CONFIG = Symbol('CONFIG');
