// Who has a second factor, on two nodes sharing nothing but PostgreSQL (docs/api.md, Two-step sign-in): the list is
// the member-security read model's, and a node answers it only once its model holds every factor change recorded
// before the request, wherever it was made; a node whose model lags answers 503, never a list that misses one.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { READ_MODELS, type ReadModels } from '#read-models';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL two-step members suite SKIPPED: ${started.skip}.\n`);

const password = 'correct horse battery staple';

(server === undefined ? describe.skip : describe)("the members' second factors on two nodes", () => {
  let nodeA: AuthApp;
  let nodeB: AuthApp;
  let organizationId: string;
  let ownerOnA: Browser;
  let ownerOnB: Browser;

  async function member(): Promise<{ userId: string; email: string }> {
    const email = `member-${randomUUID().slice(0, 8)}@two-nodes.example`;
    const userId = await nodeA.createUser({ email, password });
    const answer = await ownerOnA.post(`/organizations/${organizationId}/members`, { email, role: 'member' });
    expect(answer.status).toBe(201);
    return { userId, email };
  }

  /** Sets up an authenticator app through node A. */
  async function setUpAppOnA(email: string): Promise<void> {
    const browser = await nodeA.signedIn(email, password);
    const setup = await browser.post('/account/two-step/authenticator-app');
    expect(setup.status).toBe(200);
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(nodeA.clock.now().getTime() / 1000) });
    expect(
      (
        await browser.request('PUT', '/account/two-step/authenticator-app', {
          json: { setup: setup.body.setup, code, password },
        })
      ).status,
    ).toBe(200);
  }

  const secondFactorOnB = async (userId: string): Promise<unknown> => {
    const listed = await ownerOnB.get(`/organizations/${organizationId}/two-step-sign-in`);
    expect(listed.status).toBe(200);
    return (listed.body.members as { userId: string; secondFactor: boolean }[]).find(
      (listedMember) => listedMember.userId === userId,
    )?.secondFactor;
  };

  beforeAll(async () => {
    const databaseUrl = await (server as PostgresServer).createDatabase('chorus_two_step_members');
    nodeA = await startAuthApp({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    nodeB = await startAuthApp({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    const ownerId = await nodeA.createUser({ email: 'owner@two-nodes.example', password });
    organizationId = await nodeA.createOrganization('Two Nodes Ltd', {
      userId: ownerId,
      email: 'owner@two-nodes.example',
    });
    ownerOnA = await nodeA.signedIn('owner@two-nodes.example', password);
    ownerOnB = await nodeB.signedIn('owner@two-nodes.example', password);
  }, 120_000);

  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await server?.stop();
  });

  it('shows on the other node, asked at once, a factor set up through one', async () => {
    const people = await Promise.all([member(), member(), member()]);
    for (const person of people) expect(await secondFactorOnB(person.userId)).toBe(false);

    for (const person of people) {
      await setUpAppOnA(person.email);
      expect(await secondFactorOnB(person.userId)).toBe(true);
    }
  });

  it("answers 503 NOT_YET_CONSISTENT while the node's read model lags, and the whole list once it has caught up", async () => {
    const person = await member();
    expect(await secondFactorOnB(person.userId)).toBe(false);
    const readModelsOfB = nodeB.app.get<ReadModels>(READ_MODELS);
    await readModelsOfB.stop();
    try {
      await setUpAppOnA(person.email);
      const lagging = await ownerOnB.get(`/organizations/${organizationId}/two-step-sign-in`);
      expect(lagging.status).toBe(503);
      expect(lagging.body).toMatchObject({ code: 'NOT_YET_CONSISTENT' });
      expect(lagging.headers.get('retry-after')).toBe('1');
    } finally {
      readModelsOfB.start();
    }
    expect(await secondFactorOnB(person.userId)).toBe(true);
  });
});
