import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './config.js';

const problemsOf = (environment: Record<string, string>): string[] => {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

const ssoKey = (id: string, fill = 1): string => `${id}:${Buffer.alloc(32, fill).toString('base64')}`;

describe('loadConfig', () => {
  it('reads SSO_SECRET_KEYS newest first (it seals, every one opens), in base64 or base64url', () => {
    const newer = Buffer.alloc(32, 0xfb);
    const config = loadConfig({ SSO_SECRET_KEYS: ` k2:${newer.toString('base64url')} , ${ssoKey('k1')}` });
    expect(config.ssoSecretKeys).toEqual([
      { id: 'k2', key: newer },
      { id: 'k1', key: Buffer.alloc(32, 1) },
    ]);
    expect(loadConfig({}).ssoSecretKeys).toBeUndefined();
  });

  it.each([
    ['a key of 16 bytes', `k1:${Buffer.alloc(16).toString('base64')}`, /key "k1" must be 32 bytes/],
    ['no key id', Buffer.alloc(32).toString('base64'), /not <key id>:<key>/],
    ['a key id with a space', `k 1:${Buffer.alloc(32).toString('base64')}`, /not <key id>:<key>/],
    ['a key id twice', `${ssoKey('k1')},${ssoKey('k1', 2)}`, /key id "k1" is given twice/],
    ['text that is not base64', `k1:${'!'.repeat(44)}`, /must be 32 bytes/],
  ])('refuses SSO_SECRET_KEYS with %s, naming the setting and never the key', (_case, value, message) => {
    const problems = problemsOf({ SSO_SECRET_KEYS: value });
    expect(problems).toEqual([expect.stringMatching(/^SSO_SECRET_KEYS: /)]);
    expect(problems[0]).toMatch(message);
    expect(problems[0]).not.toContain(value.slice(value.indexOf(':') + 1));
  });

  it('reads DNS_SERVERS as addresses with optional ports, and the SSO domain grace and check settings', () => {
    const servers = '192.0.2.53, 127.0.0.1:5353, [::1]:53, 2001:db8::1';
    const config = loadConfig({ DNS_SERVERS: servers, SSO_DOMAIN_GRACE_HOURS: '1.5', SSO_DOMAIN_CHECK_SECONDS: '60' });
    expect(config.ssoDomains).toEqual({
      dnsServers: ['192.0.2.53', '127.0.0.1:5353', '[::1]:53', '2001:db8::1'],
      graceMs: 5_400_000,
      checkEveryMs: 60_000,
    });
    expect(loadConfig({}).ssoDomains).toEqual({
      dnsServers: undefined,
      graceMs: 72 * 3_600_000,
      checkEveryMs: 3_600_000,
    });
  });

  it.each([
    ['a hostname', 'dns.example'],
    ['a port out of range', '127.0.0.1:70000'],
    ['an empty entry', '127.0.0.1,'],
    ['a bare IPv6 with a port', '::1:53x'],
  ])('refuses DNS_SERVERS with %s, naming the setting', (_case, value) => {
    expect(problemsOf({ DNS_SERVERS: value })).toEqual([expect.stringMatching(/^DNS_SERVERS: /)]);
  });

  it('has the documented local defaults (docs/configuration.md)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      eventStoreConnectionString: undefined,
      databaseUrl: undefined,
      productName: 'Chorus',
      smtpUrl: undefined,
      billingWebhookSecret: undefined,
      stripeWebhookSecrets: [],
      planPaymentProviderIds: [],
      planLinkedProductIds: {},
      seedDemo: true,
      projections: 'inline',
      requestLog: 'file',
    });
    expect(loadConfig({ NODE_ENV: 'test' }).requestLog).toBe('stdout');
    expect(loadConfig({ REQUEST_LOG: 'stdout' }).requestLog).toBe('stdout');
  });

  it('names the setting of every wrong value', () => {
    expect(problemsOf({ PORT: 'eighty' })).toEqual([expect.stringMatching(/^PORT: /)]);
    expect(problemsOf({ EVENTSTORE_CONNECTION_STRING: 'kurrentdb://x:2113' })).toEqual([
      expect.stringMatching(/^EVENTSTORE_CONNECTION_STRING: /),
    ]);
    expect(problemsOf({ EVENTSTORE_CONNECTION_STRING: 'esdb://x:2113' })).toEqual([
      expect.stringMatching(/^EVENTSTORE_CONNECTION_STRING: say tls=true or tls=false/),
    ]);
    expect(loadConfig({ EVENTSTORE_CONNECTION_STRING: ' esdb://x:2113?tls=false ' }).eventStoreConnectionString).toBe(
      'esdb://x:2113?tls=false',
    );
    expect(problemsOf({ PROJECTIONS: 'sometimes' })).toEqual([expect.stringMatching(/^PROJECTIONS: /)]);
  });

  it('takes DATABASE_URL as a postgres:// URL, and refuses it beside EVENTSTORE_CONNECTION_STRING', () => {
    expect(loadConfig({ DATABASE_URL: ' postgres://chorus:secret@db:5432/chorus ' }).databaseUrl).toBe(
      'postgres://chorus:secret@db:5432/chorus',
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/chorus' }).databaseUrl).toBe('postgresql://db/chorus');
    for (const wrong of ['mysql://db/chorus', 'db:5432', 'postgres://db:5432', 'postgres:///chorus']) {
      expect(problemsOf({ DATABASE_URL: wrong })).toEqual([expect.stringMatching(/^DATABASE_URL: /)]);
    }
    expect(problemsOf({ DATABASE_URL: 'postgres://chorus:secret@db/chorus' }).join()).not.toContain('secret');
    expect(
      problemsOf({ DATABASE_URL: 'postgres://db/chorus', EVENTSTORE_CONNECTION_STRING: 'esdb://x:2113?tls=false' }),
    ).toEqual(['DATABASE_URL / EVENTSTORE_CONNECTION_STRING: set one of them, not both']);
  });

  it('refuses production without its secrets and public origin, and seeds no demo there', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^SESSION_SECRET: /),
      expect.stringMatching(/^PUBLIC_URL: /),
      expect.stringMatching(/^SSO_SECRET_KEYS: /),
    ]);
    const production = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://chorus.example/',
      SSO_SECRET_KEYS: ssoKey('k1'),
    });
    expect(production.seedDemo).toBe(false);
    expect(production.publicUrl).toBe('https://chorus.example');
  });

  it('reads STRIPE_WEBHOOK_SECRET as several secrets for a rotation, and refuses what is not one', () => {
    expect(
      loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_old_0123456789, whsec_new_0123456789' }).stripeWebhookSecrets,
    ).toEqual(['whsec_old_0123456789', 'whsec_new_0123456789']);
    expect(loadConfig({}).stripeWebhookSecrets).toEqual([]);
    expect(problemsOf({ STRIPE_WEBHOOK_SECRET: 'sk_live_oops' })).toEqual([
      expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: /),
    ]);
  });

  it('reads payment-provider ids by index, keeping empty entries', () => {
    expect(loadConfig({ PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess, prod_pro,,prod_acs' }).planPaymentProviderIds).toEqual([
      'prod_ess',
      'prod_pro',
      '',
      'prod_acs',
    ]);
  });

  it('reads linked product ids per plan or add-on, a key repeated for several products', () => {
    const config = loadConfig({
      PLAN_LINKED_PRODUCT_IDS: 'chorus:teams=prod_teams, chorus:teams = prod_teams_yearly,feedback=prod_fb',
    });
    expect(config.planLinkedProductIds).toEqual({
      'chorus:teams': ['prod_teams', 'prod_teams_yearly'],
      feedback: ['prod_fb'],
    });
  });

  it('refuses a linked product id for an unknown key, without an id, or selling two things', () => {
    expect(problemsOf({ PLAN_LINKED_PRODUCT_IDS: 'chorus:platinum=prod_x' })).toEqual([
      expect.stringMatching(/^PLAN_LINKED_PRODUCT_IDS: "chorus:platinum=prod_x"/),
    ]);
    expect(problemsOf({ PLAN_LINKED_PRODUCT_IDS: 'feedback' })).toHaveLength(1);
    expect(problemsOf({ PLAN_LINKED_PRODUCT_IDS: 'feedback=prod_a,webAnalytics=prod_a' })).toEqual([
      expect.stringMatching(/"prod_a" already sells/),
    ]);
    expect(
      problemsOf({ PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess', PLAN_LINKED_PRODUCT_IDS: 'chorus:solo=prod_ess' }),
    ).toHaveLength(1);
  });

  it('reads METRICS_TOKEN, unset by default, and refuses one too short to be a secret, naming the setting', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: ' ' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(16) }).metricsToken).toBe('x'.repeat(16));
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual([expect.stringMatching(/^METRICS_TOKEN: /)]);
  });

  it('reads UPGRADE_URL and SUPPORT_EMAIL, both unset by default', () => {
    expect(loadConfig({})).toMatchObject({ upgradeUrl: undefined, supportEmail: undefined });
    const config = loadConfig({
      UPGRADE_URL: ' https://billing.example.com/portal?c=1 ',
      SUPPORT_EMAIL: 'help@example.com',
    });
    expect(config).toMatchObject({
      upgradeUrl: 'https://billing.example.com/portal?c=1',
      supportEmail: 'help@example.com',
    });
  });

  // The URL becomes a link every owner clicks: a script URL there would run in the console's origin.
  const scriptUrls = [
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
  ];
  it.each([...scriptUrls, '//evil.example', 'pricing'])('refuses UPGRADE_URL=%j, naming the setting', (value) => {
    expect(problemsOf({ UPGRADE_URL: value })).toEqual([expect.stringMatching(/^UPGRADE_URL: /)]);
  });

  it('refuses an http:// UPGRADE_URL in production, and a SUPPORT_EMAIL that is no address', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      PUBLIC_URL: 'https://chorus.example.com',
      SSO_SECRET_KEYS: ssoKey('k1'),
    };
    expect(problemsOf({ ...production, UPGRADE_URL: 'http://pricing.example.com' })).toEqual([
      expect.stringMatching(/^UPGRADE_URL: must be an https/),
    ]);
    expect(problemsOf({ ...production, UPGRADE_URL: 'https://pricing.example.com' })).toEqual([]);
    expect(problemsOf({ SUPPORT_EMAIL: 'support at example.com' })).toEqual([
      expect.stringMatching(/^SUPPORT_EMAIL: /),
    ]);
  });

  it('trusts no proxy unless told: the TCP peer is the client', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
  });

  it("reads TRUST_PROXY in Express's own terms", () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.0/255.255.255.0, fd00::/8, 203.0.113.7' }).trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', '192.168.1.0/255.255.255.0', 'fd00::/8', '203.0.113.7']);
  });

  it.each([
    'yes',
    'loopbak',
    '10.0.0.0/33',
    '10.0.0/8',
    'fd00::/129',
    '10.0.0.0/8/8',
    'loopback,,10.0.0.1',
    '::1/255.0.0.0',
    '-1',
  ])('refuses TRUST_PROXY=%j, naming the setting', (value) => {
    expect(problemsOf({ TRUST_PROXY: value })).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
  });

  it('leaves argon2id computations at once to the hasher’s default unless PASSWORD_HASHES_AT_ONCE says, and refuses 0', () => {
    expect(loadConfig({}).passwordHashesAtOnce).toBeUndefined();
    expect(loadConfig({ PASSWORD_HASHES_AT_ONCE: '3' }).passwordHashesAtOnce).toBe(3);
    expect(problemsOf({ PASSWORD_HASHES_AT_ONCE: '0' })).toEqual([expect.stringMatching(/^PASSWORD_HASHES_AT_ONCE: /)]);
  });

  it('has timeouts for slow clients and a cap on connections', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_000,
    });
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '4000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
        HTTP_MAX_CONNECTIONS: '20000',
      }).http,
    ).toEqual({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 65_000, maxConnections: 20_000 });
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, 'HTTP_HEADERS_TIMEOUT_MS'],
    [{ HTTP_REQUEST_TIMEOUT_MS: 'soon' }, 'HTTP_REQUEST_TIMEOUT_MS'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '700000' }, 'HTTP_KEEP_ALIVE_TIMEOUT_MS'],
    [{ HTTP_MAX_CONNECTIONS: '0' }, 'HTTP_MAX_CONNECTIONS'],
    [{ HTTP_MAX_CONNECTIONS: '1.5' }, 'HTTP_MAX_CONNECTIONS'],
    [{ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }, 'HTTP_HEADERS_TIMEOUT_MS'],
  ])('refuses %j, naming %s', (environment, setting) => {
    expect(problemsOf(environment)).toEqual([expect.stringMatching(new RegExp(`^${setting}: `))]);
  });
});

describe('tracing (the OTEL_* variables Chorus decides on)', () => {
  it('is off unless an OTLP endpoint is set, and off again when the SDK or its traces exporter is disabled', () => {
    expect(loadConfig({}).tracing).toEqual({ enabled: false, protocol: 'http/protobuf', serviceName: 'chorus' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing.enabled).toBe(true);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces' }).tracing.enabled).toBe(
      true,
    );
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }).tracing.enabled).toBe(false);
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).tracing.enabled,
    ).toBe(false);
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing
        .enabled,
    ).toBe(false);
  });

  it('takes the traces protocol over the general one, and leaves the service name to OTEL_SERVICE_NAME when set', () => {
    const tracing = loadConfig({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'chorus-eu',
    }).tracing;
    expect(tracing).toEqual({ enabled: false, protocol: 'http/json', serviceName: undefined });
    expect(
      loadConfig({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=chorus-eu' }).tracing
        .serviceName,
    ).toBeUndefined();
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'json' }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
  ])('refuses %j, naming %s', (environment, setting) => {
    expect(problemsOf(environment)).toEqual([expect.stringMatching(new RegExp(`^${setting}: `))]);
  });
});
