// GET /organizations/:id/members pages an organization's members (docs/api.md): in the order they joined, from where
// the last page ended, found by address, and counted; GET /organizations/:id says how many there are.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let api: HttpClient;
const added: string[] = [];
/** The last add's position: the first read waits for it. */
let lastPosition = 0;

type Page = {
  members: { userId: string; email: string; role: string; invited: boolean }[];
  total: number;
  next: string | null;
};

async function page(query: string): Promise<Page> {
  const answer = await api.get(`/organizations/paged/members${query}`);
  if (answer.status !== 200) throw new Error(`GET members${query} answered ${answer.status}: ${answer.text}`);
  return answer.body as Page;
}

beforeAll(async () => {
  running = await startApp({ LOG_LEVEL: 'warn' });
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
  expect((await api.post('/organizations', { name: 'Paged', id: 'paged' })).status).toBe(201);
  await api.post('/organizations/paged/plan', { line: 'classic', plan: 'enterprise' });
  for (const name of ['ann', 'bob', 'cy', 'dee', 'eve', 'flo', 'gus']) {
    const email = `${name}@paged.example`;
    const answer = await api.post('/organizations/paged/members', { email, role: name === 'ann' ? 'owner' : 'member' });
    expect(answer.status).toBe(201);
    added.push(email);
    lastPosition = Number(answer.body.position);
  }
}, 60_000);

afterAll(async () => {
  await running?.close();
});

describe('GET /organizations/:id/members', () => {
  it('pages the members in the order they joined, each page starting where the last ended, and counts them', async () => {
    const seen: string[] = [];
    const totals: number[] = [];
    let after = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const answer = await page(`?limit=3&minPosition=${lastPosition}${after === '' ? '' : `&after=${after}`}`);
      seen.push(...answer.members.map((member) => member.email));
      totals.push(answer.total);
      if (answer.next === null) break;
      after = answer.next;
    }
    expect(seen).toEqual(added);
    expect(totals).toEqual([7, 7, 7]);
    expect((await page('')).members).toHaveLength(7);
  });

  it('finds members by a part of their address, whatever its case, and counts those', async () => {
    const found = await page('?q=E%40PAGED');
    expect(found.members.map((member) => member.email)).toEqual(['dee@paged.example', 'eve@paged.example']);
    expect(found).toMatchObject({ total: 2, next: null });
    // A wildcard of SQL is a character like any other.
    expect(await page('?q=%25')).toMatchObject({ members: [], total: 0 });
  });

  it('says how many members there are in the organization answer, and who its owners are', async () => {
    const organization = await api.get('/organizations/paged');
    expect(organization.body).toMatchObject({
      memberCount: 7,
      owners: [{ userId: expect.any(String), email: 'ann@paged.example' }],
    });
    expect(organization.body.members).toHaveLength(7);
  });

  it('answers ?members=none without the member list: the count, the owners, and the rest of the answer alike', async () => {
    const [full, outline] = await Promise.all([
      api.get('/organizations/paged'),
      api.get('/organizations/paged?members=none'),
    ]);
    expect(outline.status).toBe(200);
    expect(outline.body).not.toHaveProperty('members');
    expect(outline.text).not.toContain('bob@paged.example');
    const { members, ...rest } = full.body as { members: unknown[] } & Record<string, unknown>;
    expect(members).toHaveLength(7);
    expect(outline.body).toEqual(rest);
    expect(outline.body).toMatchObject({ usage: { users: 7 }, memberCount: 7 });
  });

  it('keeps the owners of the answer without members as their roles change', async () => {
    const owners = async () =>
      ((await api.get('/organizations/paged?members=none')).body.owners as { email: string }[]).map(
        (owner) => owner.email,
      );
    const gus = (await page('?q=gus')).members[0]?.userId ?? '';
    const role = (to: string) => api.request('PATCH', `/organizations/paged/members/${gus}`, { json: { role: to } });
    const promoted = await role('owner');
    expect(promoted.status).toBe(200);
    await api.get(`/organizations/paged?minPosition=${promoted.body.position}`);
    expect(await owners()).toEqual(['ann@paged.example', 'gus@paged.example']);
    const demoted = await role('member');
    expect(demoted.status).toBe(200);
    await api.get(`/organizations/paged?minPosition=${demoted.body.position}`);
    expect(await owners()).toEqual(['ann@paged.example']);
  });

  it('refuses another value of ?members with a problem', async () => {
    const answer = await api.get('/organizations/paged?members=some');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
  });

  it('refuses a malformed cursor or limit with a problem, and an unknown organization with 404', async () => {
    for (const query of ['?limit=0', '?limit=201', '?limit=x', '?after=bm90LWEtY3Vyc29y', '?q=', '?page=2']) {
      const answer = await api.get(`/organizations/paged/members${query}`);
      expect({ query, status: answer.status, type: answer.headers.get('content-type') }).toEqual({
        query,
        status: 400,
        type: expect.stringContaining('application/problem+json'),
      });
    }
    expect((await api.get('/organizations/nowhere/members')).status).toBe(404);
  });

  it("answers no one who may not read the organization: another organization's key reads nothing", async () => {
    expect((await api.post('/organizations', { name: 'Elsewhere', id: 'elsewhere' })).status).toBe(201);
    const other = await createApiKey(running.app, ['organizations:read'], 'elsewhere', 'elsewhere');
    const answer = await api.get('/organizations/paged/members', { apiKey: other });
    expect([403, 404]).toContain(answer.status);
    expect(answer.text).not.toContain('@paged.example');
  });
});
