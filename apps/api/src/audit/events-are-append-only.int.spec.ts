// Events are never updated or deleted: every command, through the real command path and the
// billing path, only ever appends at an expected revision, and stored events stay byte-identical.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { createPlanCatalogue, type OrganizationCommand, type OrganizationCommandType } from '#domain';
import { SqliteEventStore, type EventStore } from '#event-store';
import { BillingEffects } from '../billing/billing-effects.js';
import { BillingLedger } from '../billing/billing-ledger.service.js';
import { ReceiveBillingEventCommand } from '../billing/receive-billing-event.command.js';
import { ReceiveBillingEventHandler } from '../billing/receive-billing-event.handler.js';
import { commandPath } from '../../../../test/support/scripted-history.js';

type StoreCall = { method: string; args: unknown[] };

/** The store, with every call recorded. */
function recording(store: EventStore, calls: StoreCall[]): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ method: String(property), args });
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

type Row = Record<string, unknown>;

const organizationId = 'append-only';
const catalogue = createPlanCatalogue({ paymentProviderIds: ['prod_ess', 'prod_pro', '', 'prod_acs'] });

/** Every organization command type, in an order the domain accepts. */
const subscription = {
  provider: 'stripe',
  subscriptionId: 'sub_1',
  trialEndsAt: null,
  endsOn: null,
  currentPeriod: null,
  endedAt: null,
} as const;
const everyCommand: Record<OrganizationCommandType, OrganizationCommand[]> = {
  CreateOrganization: [{ type: 'CreateOrganization', data: { id: organizationId, name: 'Append Only' } }],
  AssignPlan: [
    { type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } },
    { type: 'AssignPlan', data: { line: 'chorus', plan: 'enterprise' } },
  ],
  PurchaseAddOn: [
    { type: 'PurchaseAddOn', data: { addOn: 'qualityAssurance' } },
    { type: 'PurchaseAddOn', data: { addOn: 'webAnalytics' } },
  ],
  EnableChorus: [{ type: 'EnableChorus', data: { parallelUse: true } }],
  ConfigureLimits: [{ type: 'ConfigureLimits', data: { users: 10, override: true } }],
  ConfigureSso: [
    {
      type: 'ConfigureSso',
      data: {
        issuer: 'https://idp.append.example',
        clientId: 'chorus',
        clientSecret: 'v1.k1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBB',
        domains: ['append.example'],
        verificationTokens: { 'append.example': 'T'.repeat(32) },
        at: '2030-01-01T00:00:00.000Z',
        checks: { publicDomains: [], domainsHeldElsewhere: [], issuerAllowed: true, discovery: 'ok' },
      },
    },
  ],
  ConfigureSamlSso: [
    {
      type: 'ConfigureSamlSso',
      data: {
        idp: {
          entityId: 'https://idp.append.example/saml',
          ssoUrl: 'https://idp.append.example/sso',
          certificates: [{ certificate: 'MIIB', sha256: 'a'.repeat(64), notAfter: '2031-01-01T00:00:00.000Z' }],
        },
        domains: ['append.example'],
        checks: { publicDomains: [], domainsHeldElsewhere: [] },
      },
    },
  ],
  RecordSsoDomainCheck: [
    {
      type: 'RecordSsoDomainCheck',
      data: { domain: 'append.example', found: true, at: '2030-01-01T00:01:00.000Z', graceMs: 0 },
    },
  ],
  SetDomainJoin: [{ type: 'SetDomainJoin', data: { domain: 'append.example', join: 'automatic', role: 'auditor' } }],
  RecordAutomaticJoinRefusal: [
    { type: 'RecordAutomaticJoinRefusal', data: { domain: 'append.example', on: '2030-01-01' } },
  ],
  DisableSso: [{ type: 'DisableSso', data: {} }],
  AddMember: [
    { type: 'AddMember', data: { userId: 'owner-1', email: 'owner@append.example', role: 'owner' } },
    { type: 'AddMember', data: { userId: 'member-1', email: 'member@append.example', role: 'member' } },
  ],
  ChangeMemberRole: [{ type: 'ChangeMemberRole', data: { userId: 'member-1', role: 'admin' } }],
  ResendInvitation: [{ type: 'ResendInvitation', data: { userId: 'member-1' } }],
  RemoveMember: [{ type: 'RemoveMember', data: { userId: 'member-1' } }],
  EraseMember: [{ type: 'EraseMember', data: { userId: 'member-1' } }],
  AddSite: [{ type: 'AddSite', data: { siteId: 'site-1', name: 'Main', hostname: 'append.example' } }],
  RemoveSite: [{ type: 'RemoveSite', data: { siteId: 'site-1' } }],
  AddQualityAssuranceDomain: [{ type: 'AddQualityAssuranceDomain', data: { domain: 'qa.append.example' } }],
  RemoveQualityAssuranceDomain: [{ type: 'RemoveQualityAssuranceDomain', data: { domain: 'qa.append.example' } }],
  AddWebAnalyticsDomain: [{ type: 'AddWebAnalyticsDomain', data: { domain: 'stats.append.example' } }],
  RemoveWebAnalyticsDomain: [{ type: 'RemoveWebAnalyticsDomain', data: { domain: 'stats.append.example' } }],
  CancelAddOn: [{ type: 'CancelAddOn', data: { addOn: 'webAnalytics' } }],
  DisableChorus: [{ type: 'DisableChorus', data: {} }],
  SetTwoStepSignInPolicy: [{ type: 'SetTwoStepSignInPolicy', data: { required: true } }],
  RecordTrafficThreshold: [
    { type: 'RecordTrafficThreshold', data: { period: '2030-01', threshold: 80, used: 400_000, allowance: 500_000 } },
  ],
  SyncSubscription: [
    {
      type: 'SyncSubscription',
      data: {
        ...subscription,
        status: 'trialing',
        trialEndsAt: '2030-01-15T00:00:00.000Z',
        plans: {},
        addOns: { additionalUser: 2 },
      },
    },
  ],
  NoteTrialEnding: [
    { type: 'NoteTrialEnding', data: { subscriptionId: 'sub_1', trialEndsAt: '2030-01-15T00:00:00.000Z' } },
  ],
};

let dataDir: string;
let store: SqliteEventStore;
let rows: Database.Database;
const calls: StoreCall[] = [];

const storedRows = (): Row[] => rows.prepare('SELECT * FROM events ORDER BY position').all() as Row[];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-append-only-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  // A second, read-only connection sees the rows exactly as stored (text, not parsed).
  rows = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
  rows.defaultSafeIntegers(true);
});

afterAll(async () => {
  rows.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `work`, then checks that every row stored before it is exactly as it was and new rows only follow them. */
async function expectOnlyAppended(work: () => Promise<unknown>): Promise<void> {
  const before = storedRows();
  await work();
  const after = storedRows();
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.length).toBeGreaterThan(before.length);
}

describe('every command only appends', () => {
  it('runs every organization command type through the command path, one at a time', async () => {
    const decider = commandPath(recording(store, calls), catalogue);
    for (const command of Object.values(everyCommand).flat()) {
      const context = {
        actor: 'cli',
        correlationId: `append-${command.type}`,
        causationId: `append-${command.type}`,
        origin: {},
      };
      await expectOnlyAppended(() => decider.handle(organizationId, command, context));
    }
  });

  it('runs commands that race each other (the retry path)', async () => {
    const decider = commandPath(recording(store, calls), catalogue);
    const context = { actor: 'cli', correlationId: 'append-race', causationId: 'append-race', origin: {} };
    await expectOnlyAppended(() =>
      Promise.all(
        Array.from({ length: 8 }, (_unused, index) =>
          decider.handle(
            organizationId,
            {
              type: 'AddMember',
              data: { userId: `racer-${index}`, email: `racer-${index}@append.example`, role: 'member' },
            },
            context,
          ),
        ),
      ),
    );
  });

  it('runs billing events, duplicates included, through the billing path', async () => {
    const recorded = recording(store, calls);
    const handler = new ReceiveBillingEventHandler(
      new BillingLedger(recorded),
      new BillingEffects(recorded, catalogue),
      recorded,
      catalogue,
    );
    const event = {
      id: 'evt_append_only',
      type: 'addon.purchased',
      organizationId,
      productId: 'prod_acs',
      quantity: 2,
      occurredAt: '2030-01-01T00:00:00Z',
    } as const;
    await expectOnlyAppended(() =>
      Promise.all([1, 2, 3].map(() => handler.execute(new ReceiveBillingEventCommand(event)))),
    );
  });

  it('only ever called append to write, and always with an exact expectation (never "any")', () => {
    const writes = calls.filter(
      (call) => !['readStream', 'readAll', 'readLog', 'headPosition', 'subscribeToAll', 'ping'].includes(call.method),
    );

    expect(new Set(writes.map((call) => call.method))).toEqual(new Set(['append']));
    for (const { args } of writes) {
      const expected = args[2];
      expect(expected === 'no_stream' || typeof expected === 'bigint').toBe(true);
    }
    // Every organization command ran (the billing ledger's own commands aside).
    const commandTypes = new Set(
      storedRows().map((row) => (JSON.parse(row.metadata as string) as { commandType?: string }).commandType),
    );
    const ledgerCommands = ['ClaimBillingEvent', 'RecordBillingOutcome'];
    expect([...commandTypes].filter((type) => type !== undefined && !ledgerCommands.includes(type)).sort()).toEqual(
      Object.keys(everyCommand).sort(),
    );
  });
});

describe('no source file mutates stored events', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));

  /** Production sources under apps/ and libs/ (tests and test fixtures may corrupt data on purpose). */
  function sources(directory: string): string[] {
    return readdirSync(directory).flatMap((name) => {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'testing' ? [] : sources(path);
      return /\.(ts|tsx|js|mjs|cjs)$/.test(name) && !/\.spec\.tsx?$/.test(name) ? [path] : [];
    });
  }

  const files = ['apps', 'libs'].flatMap((directory) => sources(join(root, directory)));

  it('finds the sources it checks', () => {
    expect(files.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining([
        'libs/event-store/src/sqlite-event-store.ts',
        'libs/event-store/src/sqlite-migrations.ts',
      ]),
    );
  });

  const mutations: [string, RegExp][] = [
    ['UPDATE events', /\bUPDATE\s+(OR\s+\w+\s+)?["'`[]?events\b/i],
    ['DELETE FROM events', /\bDELETE\s+FROM\s+["'`[]?events\b/i],
    ['REPLACE INTO events', /\bREPLACE\s+INTO\s+["'`[]?events\b/i],
    ['an upsert into events', /\bINSERT\s+INTO\s+["'`[]?events\b[^;]*?\bDO\s+UPDATE\b/i],
    ['DROP TABLE events', /\bDROP\s+TABLE\s+(IF\s+EXISTS\s+)?["'`[]?events\b/i],
    ['ALTER TABLE events', /\bALTER\s+TABLE\s+["'`[]?events\b/i],
    [
      "EventStoreDB's stream deletion, tombstones and truncating metadata",
      /\b(deleteStream|tombstoneStream|setStreamMetadata)\s*\(/,
    ],
  ];

  // The personal key store keeps each key in a stream of its own beside the log, and erasing a key is its tombstone.
  const keyStreams = 'libs/event-store/src/eventstoredb-personal-keys.ts';

  // The one way the log changes in place: sealing what a build before sealing wrote in clear (docs/privacy.md), and the
  // chain given again over what it rewrote (or once, when the chain's encoding changed).
  const rewriters = [
    'libs/event-store/src/sqlite-log-rewrite.ts',
    'libs/event-store/src/postgres-log-rewrite.ts',
    'libs/event-store/src/sqlite-rechain.ts',
  ];

  // The chain (docs/history.md): an event written before it takes its first hash, and nothing else, once; the trigger
  // refuses any other change. These statements, exactly, are that (SQLite's and PostgreSQL's).
  const chaining = [
    /UPDATE events SET hash = \? WHERE position = \? AND hash IS NULL/g,
    /ALTER TABLE events ADD COLUMN hash BLOB;/g,
    /'UPDATE events SET hash = given\.hash FROM unnest\(\$1::bigint\[\], \$2::bytea\[\]\) AS given \(position, hash\) WHERE events\.position = given\.position AND events\.hash IS NULL'/g,
    /ALTER TABLE events ADD COLUMN hash bytea;/g,
  ];
  // An import into an empty PostgreSQL log (a copy, a restore) drops the log's two unique keys and builds them again at
  // its end (postgres-import.ts, docs/operations.md): these statements, exactly, which change no row.
  const importKeys = [
    /'ALTER TABLE events DROP CONSTRAINT events_stream_revision, DROP CONSTRAINT events_stream_event_id'/g,
    /`ALTER TABLE events ADD CONSTRAINT events_stream_revision UNIQUE \(stream_id, revision\),\s+ADD CONSTRAINT events_stream_event_id UNIQUE \(stream_id, event_id\)`/g,
  ];
  // A copy into EventStoreDB deletes in its target, softly, a stream its source holds deleted (eventstoredb-copies.ts,
  // markDeleted, as the other stores' imports mark it): this call, exactly, in that file only.
  const copyDeletes = /this\.client\.deleteStream\(streamId, \{ expectedRevision: ANY, \.\.\.ON_THE_LEADER \}\)/g;
  const copies = 'libs/event-store/src/eventstoredb-copies.ts';
  const withoutChaining = (text: string, file = ''): string =>
    [...chaining, ...importKeys, ...(relative(root, file) === copies ? [copyDeletes] : [])].reduce(
      (rest, statement) => rest.replace(statement, ''),
      text,
    );

  it.each(mutations)('nothing issues %s', (_what, pattern) => {
    const mutating = files
      .filter((file) => pattern.test(withoutChaining(readFileSync(file, 'utf8'), file)))
      .map((file) => relative(root, file));
    expect(mutating.filter((file) => file !== keyStreams && !rewriters.includes(file))).toEqual([]);
  });

  it('rewrites the log only to seal an older store, from its one command', () => {
    const users = files
      .filter((file) => /\bopenLogRewriter\b|\bLogRewriter\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(users.filter((file) => !file.startsWith('libs/event-store/')).sort()).toEqual([
      'apps/cli/src/commands/store-seal-personal-data.command.ts',
      'libs/identity/src/privacy/seal-personal-data.ts',
    ]);
  });

  it('tombstones only key streams, never a stream of events', () => {
    const source = readFileSync(join(root, keyStreams), 'utf8');
    expect([...source.matchAll(/tombstoneStream\(([^)]*)\)/g)].map(([, stream]) => stream)).toEqual([
      '`${STREAM_PREFIX}${subject}`',
    ]);
  });

  it('only handleCommand appends to a stream that exists: any other append starts a new stream (no_stream)', () => {
    const appenders = files.filter((file) => /\.append(ToStreams)?\(/.test(readFileSync(file, 'utf8')));
    // handleCommand appends at the revision it read; the wrappers (timing, positions, upcasting, sealing) forward each caller's
    // append, and EventStoreDB's adapter appends each part of an append to several streams as its own.
    const allowed = [
      'libs/application/src/command-handler.ts',
      'libs/event-store/src/eventstoredb-event-store.ts',
      'libs/event-store/src/forwarding-event-store.ts',
      'apps/api/src/metrics/instrumentation.ts',
      'apps/api/src/http/request-writes.ts',
      'libs/application/src/upcasting-event-store.ts',
      'libs/application/src/privacy/sealing-event-store.ts',
      // A copy into EventStoreDB, and the sealing copy into a new database, append each event at the revision its
      // source gave it, as the other stores' imports write it (docs/operations.md).
      'libs/event-store/src/eventstoredb-copies.ts',
      'libs/event-store/src/eventstoredb-sealing-copy.ts',
    ];
    const others = appenders.filter((file) => !allowed.includes(relative(root, file)));
    // A session's stream is new, so sign-in hands its first event to the store without a read.
    const appendsToExisting = others.filter((file) => {
      const source = readFileSync(file, 'utf8');
      return (
        /\.appendToStreams\(/.test(source) ||
        [...source.matchAll(/\.append\(([^;]*?)\);/gs)].some(([, args]) => !/,\s*'no_stream'\s*$/.test(args ?? ''))
      );
    });

    expect(appenders.map((file) => relative(root, file))).toContain('libs/application/src/command-handler.ts');
    expect(appendsToExisting.map((file) => relative(root, file))).toEqual([]);
  });

  it("only the event stores' migrations create the events table (SQLite and PostgreSQL, each with its append-only triggers)", () => {
    const creators = files.filter((file) =>
      /\bCREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?["'`[]?events\b/i.test(readFileSync(file, 'utf8')),
    );

    expect(creators.map((file) => relative(root, file)).sort()).toEqual([
      'libs/event-store/src/postgres-schema.ts',
      'libs/event-store/src/sqlite-migrations.ts',
    ]);
  });
});
