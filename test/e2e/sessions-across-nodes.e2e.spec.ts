// Scale-out (docs/scale-out.md): behind one proxy, any API node answers any request, so a session made on
// one node must be good on the other, and ended on both when signed out on either. Two API nodes here share
// one store (the embedded one's file: the same holds for EventStoreDB, where sessions are the same events)
// and one SESSION_SECRET, as docker-compose.scale-out.yml gives them; a third node with another secret
// shows that it is the shared secret, not the shared store alone, that makes a cookie good everywhere.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { Browser } from '../support/browser.js';

const password = 'correct horse battery staple';
const sharedSecret = 's'.repeat(48);
let dataDir: string;
let nodeA: AuthApp;
let nodeB: AuthApp;
let stranger: AuthApp;
let userId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-two-nodes-'));
  nodeA = await startAuthApp({ DATA_DIR: dataDir, SESSION_SECRET: sharedSecret, PROJECTIONS: 'inline' });
  nodeB = await startAuthApp({ DATA_DIR: dataDir, SESSION_SECRET: sharedSecret, PROJECTIONS: 'off' });
  stranger = await startAuthApp({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(48), PROJECTIONS: 'off' });
  userId = await nodeA.createUser({ email: 'ada@example.com', username: 'ada', password });
}, 120_000);

afterAll(async () => {
  for (const node of [stranger, nodeB, nodeA]) await node?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The same browser's cookies, sent to another node (what a round-robin proxy does). */
function sameBrowserOn(node: AuthApp, browser: Browser): Browser {
  const moved = new Browser(node.baseUrl);
  for (const [name, value] of browser.cookies) moved.cookies.set(name, value);
  return moved;
}

async function signedInOn(node: AuthApp): Promise<Browser> {
  const browser = node.browser();
  await browser.open('/login');
  expect((await browser.post('/login', { username: 'ada', password })).status).toBe(204);
  return browser;
}

describe('sessions across API nodes', () => {
  it('a session made on one node is good on the other', async () => {
    const onA = await signedInOn(nodeA);

    const session = await sameBrowserOn(nodeB, onA).get('/session');

    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { id: userId } });
  });

  it('signing out on one node ends the session on the other within its cache time (5 s), on its own at once', async () => {
    const onA = await signedInOn(nodeA);
    const onB = sameBrowserOn(nodeB, onA);
    expect((await onB.get('/session')).status).toBe(200);

    expect((await onB.post('/logout')).status).toBe(204);

    const stale = () => {
      const browser = nodeA.browser();
      browser.cookies.set('chorus_session', onA.cookie('chorus_session') ?? '');
      return browser;
    };
    expect((await sameBrowserOn(nodeB, stale()).get('/session')).status).toBe(401);
    // Node A trusts its copy for the documented 5 s (libs/identity/README.md), then reads the stream again.
    nodeA.clock.advance(5_001);
    expect((await stale().get('/session')).status).toBe(401);
  });

  it('a cookie signed with another secret is refused, even for a session in the same store', async () => {
    const onStranger = await signedInOn(stranger);
    expect((await onStranger.get('/session')).status).toBe(200);

    expect((await sameBrowserOn(nodeA, onStranger).get('/session')).status).toBe(401);
    expect((await sameBrowserOn(nodeB, onStranger).get('/session')).status).toBe(401);
  });

  describe('the second step on either node', () => {
    /** A user with an authenticator app set up on node A; answers its secret. */
    async function withApp(email: string): Promise<string> {
      await nodeA.createUser({ email, password });
      const browser = nodeA.browser();
      await browser.open('/login');
      await browser.post('/login', { username: email, password });
      const started = await browser.post('/account/two-step/authenticator-app');
      const code = await generate({
        secret: started.body.secret,
        epoch: Math.floor(nodeA.clock.now().getTime() / 1000),
      });
      expect(
        (
          await browser.request('PUT', '/account/two-step/authenticator-app', {
            json: { setup: started.body.setup, code, password },
          })
        ).status,
      ).toBe(200);
      return started.body.secret as string;
    }

    async function halfOpenOn(node: AuthApp, email: string): Promise<Browser> {
      const browser = node.browser();
      await browser.open('/login');
      expect((await browser.post('/login', { username: email, password })).status).toBe(204);
      return browser;
    }

    it('60 wrong codes spread over both nodes at once: at most 10 are checked', async () => {
      await withApp('guessed@example.com');
      const browsers = await Promise.all(Array.from({ length: 6 }, () => halfOpenOn(nodeA, 'guessed@example.com')));
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, index) => {
          const browser = browsers[index % 6] as Browser;
          return (index % 2 === 0 ? browser : sameBrowserOn(nodeB, browser)).post('/session/second-step/code', {
            code: '000000',
          });
        }),
      );
      const guessed = await nodeA.identity.directory.findUserIdByEmail('guessed@example.com');
      const events = await nodeA.store.readStream(`user-${guessed}`, { maxCount: 1_000 });
      const failed = events.found ? events.events.filter((event) => event.type === 'SecondStepFailed') : [];
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.length).toBeLessThanOrEqual(10);
      expect(answers.filter((answer) => answer.status === 400)).toHaveLength(failed.length);
      expect(answers.every((answer) => answer.status === 400 || answer.status === 429)).toBe(true);
    });

    it('a code used on one node is refused on the other', async () => {
      const secret = await withApp('replayed@example.com');
      const code = await generate({ secret, epoch: Math.floor(nodeA.clock.now().getTime() / 1000) });
      expect(
        (await (await halfOpenOn(nodeA, 'replayed@example.com')).post('/session/second-step/code', { code })).status,
      ).toBe(204);
      const onB = sameBrowserOn(nodeB, await halfOpenOn(nodeA, 'replayed@example.com'));
      expect((await onB.post('/session/second-step/code', { code })).body).toMatchObject({
        status: 400,
        code: 'CODE_ALREADY_USED',
      });
    });
  });
});
