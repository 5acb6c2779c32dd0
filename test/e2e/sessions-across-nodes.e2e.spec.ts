// Scale-out (docs/scale-out.md): behind one proxy, any API node answers any request, so a session made on
// one node must be good on the other, and ended on both when signed out on either. Two API nodes here share
// one store (the embedded one's file: the same holds for EventStoreDB, where sessions are the same events)
// and one SESSION_SECRET, as docker-compose.scale-out.yml gives them; a third node with another secret
// shows that it is the shared secret, not the shared store alone, that makes a cookie good everywhere.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
});
