// The audit explorer's reads (docs/console.md History) over real HTTP: the timeline in words with
// server-side filters and paging, what an event changed, usage over time, correlations kept within the
// organization, the streamed exports, and who may read them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { ORGANIZATION_EVENT_TYPES } from '#domain';
import { READ_MODELS, type ReadModels } from '#read-models';
import { AddMemberCommand, ChangeOrganizationCommand, signBillingPayload } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Answer, Browser } from '../support/browser.js';
import { httpClient, type HttpClient } from '../support/http-client.js';

const password = 'correct horse battery staple';
const secret = 'whsec_e2e_explorer_secret_0123456789';
/** An API key whose name a spreadsheet would run as a formula (CSV injection). */
const formulaKeyName = '=HYPERLINK("http://evil.example","click")';

let app: AuthApp;
let acme: string;
let globex: string;
let auditorKey: HttpClient;
let readerKey: HttpClient;
const browsers = new Map<string, Browser>();
const userIds = new Map<string, string>();
/** The correlation id of Acme's member removal: the one its owner sent, behind the owner's name. */
let sharedCorrelation: string;
let billingEventId: string;

type Entry = {
  recordedAt: string;
  revision: number;
  position: number;
  type: string;
  description: string;
  actor: string;
  actorName: string;
  correlationId: string | null;
};

const as = (name: string): Browser => browsers.get(name) as Browser;
/** The admin's address starts like a spreadsheet formula: the CSV must keep it text. */
const emailOf = (name: string): string => (name === 'admin' ? '=admin@explorer.example' : `${name}@explorer.example`);

async function settle(): Promise<void> {
  const head = await app.store.headPosition();
  await app.app.get<ReadModels>(READ_MODELS).waitForPosition(head ?? 0n, 10_000);
}

function expectOk(answer: Answer): Answer {
  expect({ status: answer.status, body: answer.status === 200 || answer.status === 201 ? 'ok' : answer.body }).toEqual({
    status: answer.status,
    body: 'ok',
  });
  return answer;
}

beforeAll(async () => {
  app = await startAuthApp({
    LOG_LEVEL: 'silent',
    BILLING_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
  });
  for (const name of ['owner', 'admin', 'auditor', 'member', 'reader', 'stranger', 'outsider']) {
    userIds.set(name, await app.createUser({ email: emailOf(name), username: name, password }));
  }
  acme = await app.createOrganization('Acme', {
    userId: userIds.get('owner') as string,
    email: 'owner@explorer.example',
  });
  globex = await app.createOrganization('Globex', {
    userId: userIds.get('stranger') as string,
    email: 'stranger@explorer.example',
  });
  const commands = app.app.get(CommandBus);
  const cli = { actor: 'cli', correlationId: 'explorer-setup', causationId: 'explorer-setup', origin: {} };
  for (const [name, role] of [
    ['admin', 'admin'],
    ['auditor', 'auditor'],
    ['member', 'member'],
    ['reader', 'member'],
  ] as const) {
    await commands.execute(
      new AddMemberCommand(acme, { email: emailOf(name), role, userId: userIds.get(name) as string }, cli),
    );
  }
  await commands.execute(
    new AddMemberCommand(
      globex,
      { email: 'outsider@explorer.example', role: 'auditor', userId: userIds.get('outsider') as string },
      cli,
    ),
  );
  for (const name of userIds.keys()) browsers.set(name, await app.signedIn(name, password));

  // Acme's owner removes the member and adds Ann; an API key with a hostile name adds a site, and so
  // does the admin, whose address starts like a formula; billing sells an extra site.
  const removal = await as('owner').delete(`/organizations/${acme}/members/${userIds.get('member') as string}`, {
    headers: { 'x-correlation-id': 'shared-correlation' },
  });
  expectOk(removal);
  sharedCorrelation = removal.headers.get('x-correlation-id') ?? '';
  expectOk(await as('owner').post(`/organizations/${acme}/members`, { email: 'ann@example.com', role: 'admin' }));
  const writer = httpClient(app.baseUrl, {
    apiKey: await createApiKey(app.app, ['organizations:write', 'organizations:read'], formulaKeyName),
  });
  expect((await writer.post(`/organizations/${acme}/sites`, { name: 'Shop', hostname: 'bücher.example' })).status).toBe(
    201,
  );
  expectOk(await as('admin').post(`/organizations/${acme}/sites`, { name: 'Blog', hostname: 'blog.explorer.example' }));
  billingEventId = 'evt_explorer_1';
  const delivery = JSON.stringify({
    id: billingEventId,
    type: 'addon.purchased',
    organizationId: acme,
    productId: 'prod_acs',
    quantity: 1,
    occurredAt: new Date().toISOString(),
  });
  const billed = await httpClient(app.baseUrl).request('POST', '/billing/events', {
    raw: delivery,
    headers: {
      'content-type': 'application/json',
      'billing-signature': signBillingPayload(secret, Math.floor(Date.now() / 1000), Buffer.from(delivery)),
    },
  });
  expect(billed.status).toBe(200);
  // Globex: a change under the same correlation id as Acme's removal (the command line may choose any).
  await commands.execute(
    new ChangeOrganizationCommand(
      globex,
      { type: 'ConfigureLimits', data: { users: 7 } },
      { actor: 'cli', correlationId: sharedCorrelation, causationId: 'x', origin: {} },
    ),
  );
  await commands.execute(
    new ChangeOrganizationCommand(
      globex,
      { type: 'ConfigureLimits', data: { users: 8 } },
      { actor: 'cli', correlationId: 'globex-only', causationId: 'x', origin: {} },
    ),
  );
  auditorKey = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['audit:read']) });
  readerKey = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read']) });
  await settle();
}, 120_000);

afterAll(async () => {
  await app.close();
});

async function timeline(
  query = '',
  who = 'auditor',
): Promise<{ entries: Entry[]; next: number | null; order: string }> {
  const answer = await as(who).get(`/organizations/${acme}/history/events${query}`);
  expect(answer.status).toBe(200);
  return answer.body as { entries: Entry[]; next: number | null; order: string };
}

/** Every entry, following `next` page by page. */
async function allPages(query: string, limit: number): Promise<{ entries: Entry[]; pages: number }> {
  const entries: Entry[] = [];
  let pages = 0;
  for (let after: number | null | undefined; after !== null; pages += 1) {
    const page = await timeline(`?limit=${limit}${query}${after === undefined ? '' : `&after=${after}`}`);
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...page.entries);
    after = page.next;
    if (pages > 50) throw new Error('paging does not end');
  }
  return { entries, pages };
}

describe('the timeline', () => {
  it('is newest first by default, every event in words with its actor, revision and correlation id', async () => {
    const page = await timeline();
    const revisions = page.entries.map((entry) => entry.revision);

    expect(page.order).toBe('newest');
    expect(revisions).toEqual([...revisions].sort((a, b) => b - a));
    expect(revisions.at(-1)).toBe(0);
    const words = page.entries.map((entry) => [entry.description, entry.actorName]);
    expect(words).toEqual(
      expect.arrayContaining([
        ['Add-on purchased: Additional site', 'Billing'],
        ['Site added: Shop (bücher.example)', `API key “${formulaKeyName}”`],
        ['Site added: Blog (blog.explorer.example)', '=admin@explorer.example'],
        ['Member added: ann@example.com as admin', 'owner@explorer.example'],
        ['Member removed: member@explorer.example', 'owner@explorer.example'],
        ['Member added: auditor@explorer.example as auditor', 'Command line'],
        ['Plan assigned: Chorus teams', 'Command line'],
        ['Organization created: Acme', 'Command line'],
      ]),
    );
    const removal = page.entries.find((entry) => entry.type === 'MemberRemoved');
    const owner = `user:${userIds.get('owner') as string}`;
    expect(removal).toMatchObject({
      actor: owner,
      correlationId: `${owner}:shared-correlation`,
      recordedAt: expect.stringMatching(/Z$/),
    });
  });

  it.each([1, 3, 5])('pages of %i hold every event exactly once, newest first and oldest first', async (limit) => {
    const whole = await timeline('?limit=200');
    const newest = await allPages('', limit);
    const oldest = await allPages('&order=oldest', limit);

    expect(newest.entries).toEqual(whole.entries);
    expect(oldest.entries).toEqual([...whole.entries].reverse());
    expect(newest.pages).toBe(Math.ceil(whole.entries.length / limit));
  });

  it('filters on the server by event type, actor and time range, also together and across pages', async () => {
    const all = (await timeline('?limit=200')).entries;
    const ids = (entries: Entry[]) => entries.map((entry) => entry.revision);

    expect(ids((await timeline('?type=MemberAdded')).entries)).toEqual(
      ids(all.filter((entry) => entry.type === 'MemberAdded')),
    );
    const owner = `user:${userIds.get('owner') as string}`;
    expect(ids((await timeline(`?actor=${encodeURIComponent(owner)}`)).entries)).toEqual(
      ids(all.filter((entry) => entry.actor === owner)),
    );
    expect((await timeline('?actor=billing')).entries.map((entry) => entry.type)).toEqual(['AddOnPurchased']);
    // Newest first: the second oldest event to the third oldest.
    const [from, to] = [all.at(-2)?.recordedAt as string, all.at(-3)?.recordedAt as string];
    const inRange = all.filter((entry) => entry.recordedAt >= from && entry.recordedAt <= to);
    expect(ids((await timeline(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).entries)).toEqual(
      ids(inRange),
    );
    expect(ids((await timeline(`?type=MemberAdded&actor=cli&to=${encodeURIComponent(to)}`)).entries)).toEqual(
      ids(all.filter((entry) => entry.type === 'MemberAdded' && entry.actor === 'cli' && entry.recordedAt <= to)),
    );
    const paged = await allPages('&type=MemberAdded', 1);
    expect(ids(paged.entries)).toEqual(ids(all.filter((entry) => entry.type === 'MemberAdded')));
  });

  it('lists the filter choices: every event type, and the actors of this organization in words', async () => {
    const answer = await as('auditor').get(`/organizations/${acme}/history/filters`);

    expect(answer.status).toBe(200);
    expect(answer.body.types).toContainEqual({ type: 'MemberAdded', name: 'Member added' });
    expect(answer.body.types.map((choice: { type: string }) => choice.type)).toEqual(ORGANIZATION_EVENT_TYPES);
    expect(answer.body.actors).toEqual(
      expect.arrayContaining([
        { actor: 'billing', name: 'Billing' },
        { actor: 'cli', name: 'Command line' },
        { actor: `user:${userIds.get('owner') as string}`, name: 'owner@explorer.example' },
        { actor: expect.stringMatching(/^api-key:/), name: `API key “${formulaKeyName}”` },
        { actor: `user:${userIds.get('admin') as string}`, name: '=admin@explorer.example' },
      ]),
    );
    expect(answer.body.actors).toHaveLength(5);
  });

  it.each([
    '?type=Nonsense',
    '?limit=0',
    '?limit=201',
    '?order=sideways',
    '?after=-1',
    '?from=2031-01-01',
    '?from=2031-01-02T00:00:00Z&to=2031-01-01T00:00:00Z',
    '?actor=%20',
    '?page=2',
  ])('refuses %s: 400 VALIDATION_FAILED', async (query) => {
    const answer = await as('auditor').get(`/organizations/${acme}/history/events${query}`);

    expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('an unknown organization is 404 for an API key (a member of none is 403 before that)', async () => {
    expect((await auditorKey.get('/organizations/nobody-here/history/events')).status).toBe(404);
    expect((await auditorKey.get('/organizations/nobody-here/history/filters')).status).toBe(404);
    expect((await as('auditor').get('/organizations/nobody-here/history/events')).status).toBe(403);
  });
});

describe('what an event changed', () => {
  it('selecting an event: the event in words, the state after it and the difference against the state before', async () => {
    const added = (await timeline('?type=MemberAdded')).entries.find(
      (entry) => entry.description === 'Member added: ann@example.com as admin',
    ) as Entry;
    const answer = await as('auditor').get(`/organizations/${acme}/history/changes?asOfRevision=${added.revision}`);

    expect(answer.status).toBe(200);
    expect(answer.body.entry).toEqual(added);
    expect(answer.body.state).toMatchObject({ revision: added.revision, recordedAt: added.recordedAt });
    expect(answer.body.state.members.map((member: { email: string }) => member.email)).toContain('ann@example.com');
    expect(answer.body.changes).toEqual([
      { area: 'usage', kind: 'changed', subject: 'Users in use', before: '4', after: '5', text: 'Users in use: 4 → 5' },
      {
        area: 'members',
        kind: 'added',
        subject: 'Member',
        after: 'ann@example.com as admin',
        text: 'Member: ann@example.com as admin',
      },
    ]);
  });

  it('the state as of an instant before the event does not have the member; the state as of its instant does', async () => {
    const added = (await timeline('?type=MemberAdded')).entries.find(
      (entry) => entry.description === 'Member added: ann@example.com as admin',
    ) as Entry;
    const before = new Date(Date.parse(added.recordedAt) - 1).toISOString();
    const earlier = await as('auditor').get(
      `/organizations/${acme}/history/changes?asOf=${encodeURIComponent(before)}`,
    );
    const then = await as('auditor').get(
      `/organizations/${acme}/history/changes?asOf=${encodeURIComponent(added.recordedAt)}`,
    );

    expect(earlier.body.state.revision).toBeLessThan(added.revision);
    expect(earlier.body.state.members.map((member: { email: string }) => member.email)).not.toContain(
      'ann@example.com',
    );
    expect(then.body.state.members.map((member: { email: string }) => member.email)).toContain('ann@example.com');
  });

  it('memberLimit lists the first members then and counts them all; out of range is 400 and changes nothing', async () => {
    const latest = await as('auditor').get(`/organizations/${acme}/history/changes`);
    const count = latest.body.state.members.length as number;
    const first = await as('auditor').get(`/organizations/${acme}/history/changes?memberLimit=2`);
    const none = await as('auditor').get(`/organizations/${acme}/history/changes?memberLimit=0`);

    expect(count).toBeGreaterThan(2);
    expect(latest.body.state.memberCount).toBe(count);
    expect(first.body.state).toMatchObject({ memberCount: count, members: latest.body.state.members.slice(0, 2) });
    expect(none.body.state).toMatchObject({ memberCount: count, members: [] });
    for (const wrong of ['1001', '-1', 'two', '2.5']) {
      const refused = await as('auditor').get(`/organizations/${acme}/history/changes?memberLimit=${wrong}`);
      expect({ wrong, status: refused.status, type: refused.headers.get('content-type') }).toEqual({
        wrong,
        status: 400,
        type: expect.stringContaining('application/problem+json'),
      });
    }
  });

  it('the creation: the organization added; a revision not recorded is 404', async () => {
    const created = await as('auditor').get(`/organizations/${acme}/history/changes?asOfRevision=0`);

    expect(created.body.changes).toEqual([
      { area: 'organization', kind: 'added', subject: 'Organization', after: 'Acme', text: 'Organization: Acme' },
    ]);
    expect((await as('auditor').get(`/organizations/${acme}/history/changes?asOfRevision=999`)).status).toBe(404);
  });
});

describe('usage over time', () => {
  it('a point where users or sites in use, or their limits, changed', async () => {
    const answer = await as('auditor').get(`/organizations/${acme}/history/usage`);
    const points = answer.body.points as {
      users: { usage: number; limit: number | null };
      contentSections: { usage: number; limit: number | null };
    }[];

    expect(answer.status).toBe(200);
    expect(answer.body.merged).toBe(false);
    // Created, plan assigned, five members added, one removed, Ann added, two sites, an extra site bought.
    expect(points.map((point) => point.users.usage)).toEqual([0, 0, 1, 2, 3, 4, 5, 4, 5, 5, 5, 5]);
    expect(points.map((point) => point.contentSections.usage)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2]);
    expect(points.at(-1)).toMatchObject({ users: { usage: 5, limit: 5 }, contentSections: { usage: 2, limit: 3 } });
  });
});

describe('correlations within the organization', () => {
  it('opens every event of a billing event, in the organization and in the billing ledger', async () => {
    const answer = await as('auditor').get(`/organizations/${acme}/correlations/${billingEventId}`);

    expect(answer.status).toBe(200);
    type Entry = { streamId: string; description: string; actorName: string };
    expect(answer.body.entries.map((entry: Entry) => [entry.streamId, entry.description, entry.actorName])).toEqual([
      [
        `billing-${billingEventId}`,
        `Billing event received: add-on purchased, product prod_acs × 1 (${billingEventId})`,
        'Billing',
      ],
      [`organization-${acme}`, 'Add-on purchased: Additional site', 'Billing'],
      [`billing-${billingEventId}`, 'Billing event applied to the organization', 'Billing'],
    ]);
  });

  it("an auditor of Acme cannot read Globex's events through a shared correlation id", async () => {
    const shared = await as('auditor').get(`/organizations/${acme}/correlations/${sharedCorrelation}`);
    const globexSide = await as('outsider').get(`/organizations/${globex}/correlations/${sharedCorrelation}`);

    expect(shared.body.entries.map((entry: { streamId: string }) => entry.streamId)).toEqual([`organization-${acme}`]);
    expect(
      globexSide.body.entries.map((entry: { streamId: string; description: string }) => [
        entry.streamId,
        entry.description,
      ]),
    ).toEqual([[`organization-${globex}`, 'Limits configured: Users 7']]);
  });

  it("nor through a guessed one: Globex's own correlation answers as an unknown id would, and Globex's route is 403", async () => {
    const guessed = await as('auditor').get(`/organizations/${acme}/correlations/globex-only`);
    const unknown = await as('auditor').get(`/organizations/${acme}/correlations/never-used-anywhere`);

    expect(guessed.status).toBe(200);
    expect({ ...guessed.body, correlationId: 'x' }).toEqual({ ...unknown.body, correlationId: 'x' });
    expect(guessed.body.entries).toEqual([]);
    expect((await as('auditor').get(`/organizations/${globex}/correlations/globex-only`)).status).toBe(403);
    // Nor the billing ledger of another organization's billing event.
    expect((await as('outsider').get(`/organizations/${globex}/correlations/${billingEventId}`)).body.entries).toEqual(
      [],
    );
  });
});

describe('the exports', () => {
  const lines = (text: string): string[] =>
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter((line) => line !== '');

  it("JSON lines: the whole history, oldest first, with the timeline's fields and words", async () => {
    const answer = await as('auditor').get(`/organizations/${acme}/history/export?format=jsonl`);
    const all = (await timeline('?limit=200&order=oldest')).entries;

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${acme}-history.jsonl"`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(lines(answer.text).map((line) => JSON.parse(line) as Entry)).toEqual(all);
  });

  it('CSV: RFC 4180 with a header, one record per event, quotes doubled, a formula-like value kept as text', async () => {
    const answer = await as('auditor').get(`/organizations/${acme}/history/export?format=csv`);
    const all = (await timeline('?limit=200&order=oldest')).entries;
    const records = lines(answer.text);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    // (fetch's text() drops the byte order mark the file starts with: history-export-format.unit.spec.ts checks it.)
    expect(
      answer.text.startsWith('recordedAt,revision,position,type,description,actor,actorName,correlationId\r\n'),
    ).toBe(true);
    expect(records).toHaveLength(all.length + 1);
    const [shop, blog] = records.filter((record) => record.includes('SiteAdded'));
    expect(shop).toContain(',"API key “=HYPERLINK(""http://evil.example"",""click"")”",');
    expect(blog).toContain(",'=admin@explorer.example,");
    // No field starts with =, +, - or @ (a revision or position is never negative).
    expect(records.every((record) => !/(^|,)"?[=+\-@]/.test(record))).toBe(true);
  });

  it('holds what the filtered timeline shows: the same type, actor and time range, as query parameters', async () => {
    const all = (await timeline('?limit=200&order=oldest')).entries;
    const site = all.find((entry) => entry.type === 'SiteAdded') as Entry;
    const owner = `user:${userIds.get('owner') as string}`;
    const from = all[2]?.recordedAt as string;
    const to = all.at(-2)?.recordedAt as string;
    const filters = [
      `type=SiteAdded`,
      `actor=${encodeURIComponent(site.actor)}`,
      `actor=${encodeURIComponent(owner)}&from=${from}&to=${to}`,
      `type=MemberAdded&actor=cli`,
    ];

    for (const filter of filters) {
      const shown = (await timeline(`?limit=200&order=oldest&${filter}`)).entries;
      const jsonl = await as('auditor').get(`/organizations/${acme}/history/export?format=jsonl&${filter}`);
      const csv = await as('auditor').get(`/organizations/${acme}/history/export?format=csv&${filter}`);

      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan(all.length);
      expect({ filter, entries: lines(jsonl.text).map((line) => JSON.parse(line) as Entry) }).toEqual({
        filter,
        entries: shown,
      });
      expect({ filter, records: lines(csv.text).length }).toEqual({ filter, records: shown.length + 1 });
    }
  });

  it.each([
    'type=Nonsense',
    'from=2021-01-01',
    'from=2021-01-02T00:00:00Z&to=2021-01-01T00:00:00Z',
    'actor=%20',
    'page=2',
  ])('refuses the filter %s as the timeline does: 400 VALIDATION_FAILED, not an unfiltered file', async (filter) => {
    const answer = await as('auditor').get(`/organizations/${acme}/history/export?format=csv&${filter}`);

    expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('refuses a format it does not write (400) and an unknown organization (404), before any byte of a file', async () => {
    expect((await as('auditor').get(`/organizations/${acme}/history/export?format=xlsx`)).status).toBe(400);
    expect((await as('auditor').get(`/organizations/${acme}/history/export`)).status).toBe(400);
    const unknown = await auditorKey.get('/organizations/nobody-here/history/export?format=csv');
    expect({ status: unknown.status, type: unknown.headers.get('content-type') }).toEqual({
      status: 404,
      type: expect.stringMatching(/^application\/problem\+json/),
    });
  });
});

describe('who may read it (docs/domain.md: owners, admins and auditors read the history)', () => {
  const routes = (organizationId: string): string[] => [
    `/organizations/${organizationId}/history/events`,
    `/organizations/${organizationId}/history/filters`,
    `/organizations/${organizationId}/history/changes`,
    `/organizations/${organizationId}/history/usage`,
    `/organizations/${organizationId}/history/export?format=jsonl`,
    `/organizations/${organizationId}/correlations/explorer-setup`,
  ];

  it.each(['owner', 'admin', 'auditor'])('an %s of the organization reads every part of it', async (name) => {
    for (const route of routes(acme))
      expect({ route, status: (await as(name).get(route)).status }).toEqual({ route, status: 200 });
  });

  it('a plain member, a former member, and people of other organizations (an owner, an auditor): 403', async () => {
    for (const name of ['reader', 'member', 'stranger', 'outsider']) {
      for (const route of routes(acme)) {
        const answer = await as(name).get(route);
        expect({ name, route, status: answer.status, code: answer.body?.code }).toEqual({
          name,
          route,
          status: 403,
          code: 'FORBIDDEN',
        });
      }
    }
  });

  it('API keys need audit:read; no credentials is 401', async () => {
    for (const route of routes(acme)) {
      expect({ route, status: (await auditorKey.get(route)).status }).toEqual({ route, status: 200 });
      expect({ route, status: (await readerKey.get(route)).status }).toEqual({ route, status: 403 });
      expect({ route, status: (await httpClient(app.baseUrl).get(route)).status }).toEqual({ route, status: 401 });
    }
  });
});
