// Concurrent commands on one organization: optimistic concurrency with re-decision keeps every limit,
// and a caller sees a conflict only as the decision it changed (LIMIT_EXCEEDED, ALREADY_EXISTS), never
// as a CONCURRENCY_CONFLICT that no one else caused.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDENTITY } from '#api';
import type { Identity } from '#identity';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;

const claimStream = (kind: 'email', value: string) =>
  running.app.get<Identity>(IDENTITY).identifierNames.streamOf(kind, value);
async function reservedId(email: string): Promise<string | undefined> {
  const stream = await running.store.readStream(await claimStream('email', email));
  return stream.found ? (stream.events[0]?.data as { userId: string }).userId : undefined;
}
let api: HttpClient;

beforeAll(async () => {
  running = await startApp({ LOG_LEVEL: 'warn' });
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
});

afterAll(async () => {
  await running.close();
});

const CALLS = 50;
const LIMIT = 5;

function tally(responses: HttpResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const outcome = response.status < 300 ? String(response.status) : `${response.status} ${response.body?.code}`;
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

describe(`${CALLS} concurrent adds against an effective limit of ${LIMIT}`, () => {
  it('members: exactly 5 added, 45 LIMIT_EXCEEDED', async () => {
    const id = await createOrganization(api, {
      plan: { line: 'classic', plan: 'enterprise' },
      limits: { users: LIMIT },
    });

    const responses = await Promise.all(
      Array.from({ length: CALLS }, (_, index) =>
        api.post(`/organizations/${id}/members`, { email: `member-${index}@example.com`, role: 'member' }),
      ),
    );

    expect(tally(responses)).toEqual({ '201': LIMIT, '409 LIMIT_EXCEEDED': CALLS - LIMIT });
    for (const refused of responses.filter((response) => response.status === 409)) {
      expect(refused.body).toMatchObject({ resource: 'users', limit: LIMIT, count: LIMIT });
    }
    const added = (await organizationEvents(running.store, id)).filter((event) => event.type === 'MemberAdded');
    expect(added).toHaveLength(LIMIT);
    // Each member's address holds the member's id. An add that lost the race between its reservation and its record
    // may leave its address's future id reserved (docs/service.md): an id no membership holds.
    for (const event of added) {
      const { userId, email } = event.data as { userId: string; email: string };
      expect(await reservedId(email)).toBe(userId);
    }

    // An add refused at its decision, with no race, records nothing, not even a reservation.
    const late = await api.post(`/organizations/${id}/members`, { email: 'late@example.com', role: 'member' });
    expect(late.status).toBe(409);
    expect(await reservedId('late@example.com')).toBeUndefined();
  });

  it('sites: exactly 5 added, 45 LIMIT_EXCEEDED', async () => {
    const id = await createOrganization(api, {
      plan: { line: 'classic', plan: 'enterprise' },
      limits: { contentSections: LIMIT },
    });

    const responses = await Promise.all(
      Array.from({ length: CALLS }, (_, index) =>
        api.post(`/organizations/${id}/sites`, { name: `Site ${index}`, hostname: `site-${index}.example` }),
      ),
    );

    expect(tally(responses)).toEqual({ '201': LIMIT, '409 LIMIT_EXCEEDED': CALLS - LIMIT });
    const added = (await organizationEvents(running.store, id)).filter((event) => event.type === 'SiteAdded');
    expect(added).toHaveLength(LIMIT);
  });
});

it(`${CALLS} concurrent adds under the limit: every one is added, none refused with a conflict`, async () => {
  const id = await createOrganization(api, {
    plan: { line: 'classic', plan: 'enterprise' },
    limits: { users: CALLS + 1 },
  });

  const responses = await Promise.all(
    Array.from({ length: CALLS }, (_, index) =>
      api.post(`/organizations/${id}/members`, { email: `crowd-${index}@example.com`, role: 'member' }),
    ),
  );

  expect(tally(responses)).toEqual({ '201': CALLS });
  const added = (await organizationEvents(running.store, id)).filter((event) => event.type === 'MemberAdded');
  expect(added).toHaveLength(CALLS);
});

it('one new address added to 10 organizations at once: every membership has the one id reserved for it', async () => {
  const ids = await Promise.all(
    Array.from({ length: 10 }, () => createOrganization(api, { plan: { line: 'classic', plan: 'enterprise' } })),
  );

  const responses = await Promise.all(
    ids.map((id) => api.post(`/organizations/${id}/members`, { email: 'Shared.Person@example.com', role: 'member' })),
  );

  expect(tally(responses)).toEqual({ '201': 10 });
  const userIds = new Set(responses.map((response) => response.body.userId as string));
  expect(userIds.size).toBe(1);
  const reservation = await running.store.readStream(await claimStream('email', 'shared.person@example.com'));
  expect(reservation.found && reservation.events.map((event) => (event.data as { userId: string }).userId)).toEqual([
    ...userIds,
  ]);
});

it('concurrent creations of one id: exactly one is created, the others are ALREADY_EXISTS', async () => {
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => api.post('/organizations', { name: 'Contested', id: 'contested' })),
  );

  expect(tally(responses)).toEqual({ '201': 1, '409 ALREADY_EXISTS': 19 });
  expect(await organizationEvents(running.store, 'contested')).toHaveLength(1);
});
