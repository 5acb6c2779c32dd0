// A wrong value stops the process with a message naming the setting (docs/configuration.md).
import { z } from 'zod';
import { CATALOGUE_PRODUCT_KEYS, type CatalogueProductKey } from '#domain';
import { databaseUrlProblems } from './database-url.js';
import { eventStoreConnectionStringProblems } from './eventstore-connection-string.js';
import { parseSsoDomainSettings, type SsoDomainSettings } from './sso-domain-settings.js';
import { parseSsoSecretKeys, type SsoSecretKey } from './sso-secret-keys.js';
import { parseStripeWebhookSecrets } from './stripe-webhook-secrets.js';
import { parseTracingSettings, type TracingSettings } from './tracing-settings.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

const booleanSetting = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** At least 100 ms: 0 would mean "no limit" to Node. */
function milliseconds(fallback: number) {
  return z.coerce.number().int().min(100).max(600_000).default(fallback);
}

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: z.string().min(1).default('./data'),
  BACKUP_DIR: optionalText,
  BACKUP_ENCRYPTION_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  EVENTSTORE_CONNECTION_STRING: optionalText,
  DATABASE_URL: optionalText,
  PRODUCT_NAME: z.string().min(1).max(60).default('Chorus'),
  // A link in the console, so only http(s), never javascript: or data:.
  UPGRADE_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
  ),
  SUPPORT_EMAIL: optionalText.pipe(z.email({ message: 'must be an e-mail address' }).max(254).optional()),
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  HISTORY_SIGNING_KEY: optionalText,
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().min(3).default('Chorus <no-reply@chorus.localhost>'),
  MAIL_CLAIM_SECONDS: z.coerce.number().int().min(2).max(3_600).default(60),
  PERSONAL_DATA_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(90),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://www.googleapis.com/oauth2/v4/token'),
  GOOGLE_USERINFO_URL: z.url().default('https://www.googleapis.com/oauth2/v3/userinfo'),
  GOOGLE_SIGN_IN_TOKEN: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9._~-]*$/)
    .default(''),
  SSO_SECRET_KEYS: optionalText,
  DNS_SERVERS: optionalText,
  SSO_DOMAIN_GRACE_HOURS: z.coerce.number().min(0).max(8_760).default(72),
  SSO_DOMAIN_CHECK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3_600),
  BILLING_WEBHOOK_SECRET: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  STRIPE_WEBHOOK_SECRET: optionalText, // checked in loadConfig (stripe-webhook-secrets.ts): whsec_... secrets, comma-separated
  PLAN_PAYMENT_PROVIDER_IDS: z.string().default(''),
  PLAN_LINKED_PRODUCT_IDS: z.string().default(''),
  SEED_DEMO: optionalText.pipe(booleanSetting.optional()),
  SENTRY_DSN: optionalText.pipe(z.url().optional()),
  RELEASE_ID: z.string().default('dev'),
  PROJECTIONS: z.enum(['inline', 'off']).default('inline'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REQUEST_LOG: z.enum(['stdout', 'file', 'off']).optional(),
  TRUST_PROXY: z.string().default('false'),
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  PASSWORD_HASHES_AT_ONCE: z.coerce.number().int().min(1).max(1_024).optional(),
  ENTITLEMENT_STREAMS_MAX: z.coerce.number().int().min(0).max(1_000_000).default(500),
  ENTITLEMENT_STREAMS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(1_000_000).default(10),
  ENTITLEMENT_STREAMS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(1_000_000).default(100),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Origin users see, without trailing slash. */
  publicUrl: string;
  dataDir: string;
  /** Where `chorus store:backup` writes by default, and where every erasure is recorded to outlive a restore. */
  backupDir: string | undefined;
  /** When set, backups are encrypted at rest with a key derived from it, and a restore needs it. */
  backupEncryptionKey: string | undefined;
  eventStoreConnectionString: string | undefined;
  databaseUrl: string | undefined;
  productName: string;
  upgradeUrl: string | undefined;
  supportEmail: string | undefined;
  /** undefined: the server generates one and keeps it under DATA_DIR (never in production). */
  sessionSecret: string | undefined;
  /**
   * The Ed25519 private key that signs the history's checkpoints: PEM, or a path to a PEM file. undefined: one is
   * generated into DATA_DIR (docs/history.md).
   */
  historySigningKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    authorizationUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
    /** Appended to /auth/go/ by the sign-in page (seed section 4). */
    signInToken: string;
  };
  /** The first seals, every one opens. undefined (never in production): one derived from the session secret. */
  ssoSecretKeys: SsoSecretKey[] | undefined;
  ssoDomains: SsoDomainSettings;
  billingWebhookSecret: string | undefined;
  stripeWebhookSecrets: string[]; // every secret a Stripe signature may match; none: /billing/stripe answers 503
  /** Empty entries kept as ''. */
  planPaymentProviderIds: string[];
  planLinkedProductIds: Partial<Record<CatalogueProductKey, string[]>>;
  seedDemo: boolean;
  sentryDsn: string | undefined;
  releaseId: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * REQUEST_LOG: where each request's line goes: with the other lines (stdout), in DATA_DIR/logs/requests.log
   * (file: the default in development, so that `npm start`'s box stays on screen), or nowhere (off).
   */
  requestLog: 'stdout' | 'file' | 'off';
  /** off: another process sharing DATA_DIR runs the projector (`chorus projector:run`). */
  projections: 'inline' | 'off';
  trustProxy: TrustProxy;
  /** Unset: only clients on this host (loopback, not proxied) may read /metrics. */
  metricsToken: string | undefined;
  http: HttpLimits;
  /** undefined: one more than the cores, at most libuv's pool less one thread. */
  passwordHashesAtOnce: number | undefined;
  /** A node's claim on an owed mail, before another takes it over: above the longest a mail may take to send. */
  mailClaimMs: number;
  /** How long after its month a caller's address and user agent stay readable (docs/privacy.md). */
  personalDataRetentionDays: number;
  /** Each is also a connection of `http.maxConnections`. */
  entitlementStreamsMax: number;
  /** So that one caller cannot take them all. */
  entitlementStreamsPerPrincipal: number;
  entitlementStreamsPerOrganization: number;
  /** OpenTelemetry traces over OTLP/HTTP, on when an endpoint is set (docs/service.md, Tracing). */
  tracing: TracingSettings;
};

export type { SsoSecretKey };

/** Node's headersTimeout, requestTimeout, keepAliveTimeout and maxConnections (docs/service.md, Connections). */
export type HttpLimits = {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
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
  if (production && env.UPGRADE_URL?.startsWith('http:'))
    problems.push('UPGRADE_URL: must be an https:// URL when NODE_ENV=production');
  if (production && !env.SSO_SECRET_KEYS)
    problems.push('SSO_SECRET_KEYS: required when NODE_ENV=production (e.g. k1:<32 random bytes in base64>)');
  const ssoSecretKeys =
    env.SSO_SECRET_KEYS === undefined ? undefined : parseSsoSecretKeys(env.SSO_SECRET_KEYS, problems);
  if (env.EVENTSTORE_CONNECTION_STRING !== undefined) {
    for (const problem of eventStoreConnectionStringProblems(env.EVENTSTORE_CONNECTION_STRING))
      problems.push(`EVENTSTORE_CONNECTION_STRING: ${problem}`);
  }
  if (env.DATABASE_URL !== undefined)
    for (const problem of databaseUrlProblems(env.DATABASE_URL)) problems.push(`DATABASE_URL: ${problem}`);
  // Which store holds the log is not for Chorus to guess.
  if (env.DATABASE_URL !== undefined && env.EVENTSTORE_CONNECTION_STRING !== undefined) {
    problems.push('DATABASE_URL / EVENTSTORE_CONNECTION_STRING: set one of them, not both');
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: set both or neither');
  }
  const planPaymentProviderIds =
    env.PLAN_PAYMENT_PROVIDER_IDS === '' ? [] : env.PLAN_PAYMENT_PROVIDER_IDS.split(',').map((id) => id.trim());
  const planLinkedProductIds = parseLinkedProductIds(env.PLAN_LINKED_PRODUCT_IDS, planPaymentProviderIds, problems);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const ssoDomains = parseSsoDomainSettings(env, problems);
  const stripeWebhookSecrets = parseStripeWebhookSecrets(env.STRIPE_WEBHOOK_SECRET, problems);
  // The OTEL_* variables are the SDK's, read from the environment itself (not in the schema above).
  const tracing = parseTracingSettings(environment, problems);
  // Node refuses a headers timeout longer than the request's, which includes the headers.
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS})`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir: env.DATA_DIR,
    backupDir: env.BACKUP_DIR,
    backupEncryptionKey: env.BACKUP_ENCRYPTION_KEY,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING,
    databaseUrl: env.DATABASE_URL,
    productName: env.PRODUCT_NAME,
    upgradeUrl: env.UPGRADE_URL,
    supportEmail: env.SUPPORT_EMAIL,
    sessionSecret: env.SESSION_SECRET,
    historySigningKey: env.HISTORY_SIGNING_KEY,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailClaimMs: env.MAIL_CLAIM_SECONDS * 1_000,
    personalDataRetentionDays: env.PERSONAL_DATA_RETENTION_DAYS,
    google: {
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      authorizationUrl: env.GOOGLE_AUTHORIZATION_URL,
      tokenUrl: env.GOOGLE_TOKEN_URL,
      userInfoUrl: env.GOOGLE_USERINFO_URL,
      signInToken: env.GOOGLE_SIGN_IN_TOKEN,
    },
    ssoSecretKeys,
    ssoDomains,
    billingWebhookSecret: env.BILLING_WEBHOOK_SECRET,
    stripeWebhookSecrets,
    planPaymentProviderIds,
    planLinkedProductIds,
    seedDemo: env.SEED_DEMO ?? !production,
    sentryDsn: env.SENTRY_DSN,
    releaseId: env.RELEASE_ID,
    logLevel: env.LOG_LEVEL,
    requestLog: env.REQUEST_LOG ?? (env.NODE_ENV === 'development' ? 'file' : 'stdout'),
    projections: env.PROJECTIONS,
    trustProxy,
    metricsToken: env.METRICS_TOKEN,
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
    },
    passwordHashesAtOnce: env.PASSWORD_HASHES_AT_ONCE,
    entitlementStreamsMax: env.ENTITLEMENT_STREAMS_MAX,
    entitlementStreamsPerPrincipal: env.ENTITLEMENT_STREAMS_PER_PRINCIPAL,
    entitlementStreamsPerOrganization: env.ENTITLEMENT_STREAMS_PER_ORGANIZATION,
    tracing,
  };
}

/**
 * E.g. `chorus:teams=prod_teams,chorus:teams=prod_teams_yearly,feedback=prod_feedback`. A product id sells one thing
 * only.
 */
function parseLinkedProductIds(
  setting: string,
  paymentProviderIds: readonly string[],
  problems: string[],
): Partial<Record<CatalogueProductKey, string[]>> {
  const linked: Partial<Record<CatalogueProductKey, string[]>> = {};
  const seen = new Set(paymentProviderIds.filter((id) => id !== ''));
  for (const entry of setting
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const [key, productId, ...rest] = entry.split('=').map((part) => part.trim());
    if (!CATALOGUE_PRODUCT_KEYS.includes(key as CatalogueProductKey) || !productId || rest.length > 0) {
      problems.push(
        `PLAN_LINKED_PRODUCT_IDS: "${entry}" is not <plan or add-on>=<product id> (keys: ${CATALOGUE_PRODUCT_KEYS.join(', ')})`,
      );
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

export const CONFIG = Symbol('CONFIG');

/** Where the event store is: DATA_DIR, and the EventStoreDB or PostgreSQL the settings name instead of the embedded one. */
export const storeLocationOf = ({ dataDir, eventStoreConnectionString, databaseUrl }: Config) => ({
  dataDir,
  connectionString: eventStoreConnectionString,
  databaseUrl,
});
