// The scale-out topology, run here for real: Debian's nginx in front of two API nodes (the built server, each
// with its own DATA_DIR: they share nothing but the store) over one PostgreSQL. Limits and the sign-in lockout
// hold across the nodes; a node killed with SIGKILL under load or PostgreSQL restarted under load loses no
// acknowledged write; an invitation is mailed once, also when the node that answered the add dies at once; a
// Stripe event delivered to both nodes is applied once and the newest wins; a node's own 503 reaches the client
// and takes no node out of the proxy's rotation (deploy/scale-out/nginx.conf).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { organizationStream } from '#domain';
import { openEventStore, type EventStore } from '#event-store';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { Browser } from '../support/browser.js';
import { openEventStream } from '../support/event-stream.js';
import { ensureBuilt } from '../support/chorus-process.js';
import { SmtpInbox } from '../support/smtp-inbox.js';
import { stripeEvent, subscriptionObject, type SubscriptionItemShape } from '../support/stripe-events.js';
import { chorusCli, nginxMissing, startApiNode, startProxy, type ApiNode, type Proxy } from '../support/topology.js';

const started = nginxMissing() === undefined ? await startPostgresServer() : { skip: nginxMissing() ?? '' };
const postgres: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`Scale-out topology suite SKIPPED: ${started.skip}.\n`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Short, so that a test waits little for a dead node's claim on a mail to run out. */
const MAIL_CLAIM_SECONDS = 3;

let shared: Record<string, string>;
const STRIPE_SECRET = 'whsec_topology_0123456789';
let dataDirs: string[];
let nodes: ApiNode[];
let proxy: Proxy;
let inbox: SmtpInbox;
let store: EventStore;
let headers: Record<string, string>;

async function call(
  baseUrl: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${baseUrl}${route}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function eventually(what: string, probe: () => boolean | Promise<boolean>, deadlineMs = 60_000): Promise<void> {
  const giveUpAt = Date.now() + deadlineMs;
  while (!(await probe())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await sleep(50);
  }
}

const mailsTo = (address: string) => inbox.received.filter((mail) => mail.to.includes(address)).length;

async function restartNode(index: number): Promise<void> {
  const node = nodes[index] as ApiNode;
  nodes[index] = await startApiNode(node.name, node.dataDir, shared, node.port);
}

async function killNode(index: number): Promise<void> {
  const node = nodes[index] as ApiNode;
  node.child.kill('SIGKILL');
  expect(await node.exit).toBe('SIGKILL');
}

/**
 * `clients` callers creating organizations through the proxy until `stop()`: what each was told was created
 * (201), and what failed (any other answer, or no answer: not acknowledged, so not owed).
 */
function underLoad(clients: number) {
  let running = true;
  const acknowledged: string[] = [];
  const failures: string[] = [];
  const workers = Array.from({ length: clients }, async (_, client) => {
    for (let index = 0; running; index += 1) {
      const id = `load-${client}-${index}-${Date.now()}`;
      try {
        const answer = await call(proxy.url, 'POST', '/organizations', { name: `Load ${id}`, id });
        if (answer.status === 201) acknowledged.push(id);
        else failures.push(`${answer.status} ${String(answer.body['code'])}`);
      } catch (error) {
        failures.push(String(error));
        await sleep(50);
      }
    }
  });
  return {
    acknowledged,
    failures,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function missingFromStore(ids: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const id of ids) {
    const read = await store.readStream(organizationStream(id));
    if (!read.found || read.events[0]?.type !== 'OrganizationCreated') missing.push(id);
  }
  return missing;
}

(postgres === undefined ? describe.skip : describe)(
  'two API nodes behind nginx over one PostgreSQL, sharing nothing else',
  () => {
    beforeAll(async () => {
      ensureBuilt();
      inbox = await SmtpInbox.start();
      const databaseUrl = await (postgres as PostgresServer).createDatabase('chorus_topology');
      shared = {
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: 'a session secret shared by the nodes of this topology test',
        SMTP_URL: inbox.url,
        MAIL_CLAIM_SECONDS: String(MAIL_CLAIM_SECONDS),
        TRUST_PROXY: 'loopback',
        STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
        PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
      };
      dataDirs = ['a', 'b'].map((name) => mkdtempSync(path.join(tmpdir(), `chorus-topology-${name}-`)));
      const created = JSON.parse(
        chorusCli(
          dataDirs[0] as string,
          shared,
          'api-key:create',
          '--name',
          'topology',
          '--scopes',
          'organizations:read,organizations:write',
          '--json',
        ),
      ) as {
        key: string;
      };
      headers = { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' };
      nodes = [
        await startApiNode('node-a', dataDirs[0] as string, shared),
        await startApiNode('node-b', dataDirs[1] as string, shared),
      ];
      proxy = await startProxy(nodes);
      store = await openEventStore({ dataDir: dataDirs[0] as string, databaseUrl });
    }, 120_000);

    afterAll(async () => {
      for (const node of nodes ?? [])
        if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
      await proxy?.stop();
      await store?.close();
      await inbox?.close();
      await postgres?.stop();
      for (const dataDir of dataDirs ?? []) rmSync(dataDir, { recursive: true, force: true });
    });

    it('gives exactly 5 of 50 concurrent adds split across the nodes at a limit of 5, each new member mailed once', async () => {
      const organization = await call(proxy.url, 'POST', '/organizations', { name: 'Limited' });
      const id = organization.body['id'] as string;
      expect(
        (await call(proxy.url, 'POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' })).status,
      ).toBe(200);
      expect((await call(proxy.url, 'PUT', `/organizations/${id}/limits`, { users: 5 })).status).toBe(200);

      const emails = Array.from({ length: 50 }, (_, index) => `member-${index}@limited.example`);
      const answers = await Promise.all(
        emails.map((email, index) =>
          call((nodes[index % 2] as ApiNode).url, 'POST', `/organizations/${id}/members`, { email, role: 'member' }),
        ),
      );
      const added = emails.filter((_, index) => answers[index]?.status === 201);
      expect(added).toHaveLength(5);
      expect(
        answers.filter((answer) => answer.status === 409 && answer.body['code'] === 'LIMIT_EXCEEDED'),
      ).toHaveLength(45);
      const read = await store.readStream(organizationStream(id));
      expect(read.found ? read.events.filter((event) => event.type === 'MemberAdded').length : 0).toBe(5);

      // Both nodes follow the store and react; each mail goes out once, from one of them.
      await eventually('an invitation to each added member', () => added.every((email) => mailsTo(email) === 1));
      await sleep((MAIL_CLAIM_SECONDS + 1) * 1_000);
      expect(added.map(mailsTo)).toEqual(added.map(() => 1));
    }, 120_000);

    it('locks an account after 10 failed passwords in all, however the guesses are split between the nodes and the proxy', async () => {
      chorusCli(
        dataDirs[0] as string,
        shared,
        'user:create',
        '--email',
        'target@topology.example',
        '--password',
        'correct horse battery staple',
      );
      const guess = async (baseUrl: string, password: string) => {
        const browser = new Browser(baseUrl);
        await browser.open('/login');
        return browser.post('/login', { username: 'target@topology.example', password });
      };
      const bases = [proxy.url, ...nodes.map((node) => node.url)];
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, index) => guess(bases[index % bases.length] as string, `wrong guess ${index}`)),
      );
      const checked = answers.filter((answer) => answer.status === 401).length;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(10);
      expect(answers.filter((answer) => answer.status !== 401 && answer.status !== 429)).toEqual([]);
      for (const base of bases) expect((await guess(base, 'correct horse battery staple')).status).toBe(429);
    }, 120_000);

    it("passes a node's own 503 to the client without taking the node out of the proxy's rotation; the proxy answers its own health", async () => {
      const organization = await call(proxy.url, 'POST', '/organizations', { name: 'Slow Reads' });
      const id = organization.body['id'] as string;
      // Reads waiting for a position nobody has reached: each node answers 503 NOT_YET_CONSISTENT after its 2 s.
      const slow = await Promise.all(
        Array.from({ length: 6 }, () => call(proxy.url, 'GET', `/organizations/${id}?minPosition=999999999`)),
      );
      expect(slow.map((answer) => `${answer.status} ${String(answer.body['code'])}`)).toEqual(
        slow.map(() => '503 NOT_YET_CONSISTENT'),
      );
      // Counted as node failures, those would leave no live upstream: every read would then be nginx's 502.
      const after = await Promise.all(Array.from({ length: 10 }, () => call(proxy.url, 'GET', `/organizations/${id}`)));
      expect(after.map((answer) => answer.status)).toEqual(after.map(() => 200));
      expect((await fetch(`${proxy.url}/nginx-health`)).status).toBe(200);
    }, 60_000);

    it('compresses the JSON answers that grow with an organization for a client that takes gzip, and passes event streams as they come', async () => {
      const organization = await call(proxy.url, 'POST', '/organizations', { name: 'Compressed' });
      const id = organization.body['id'] as string;
      // Through nginx the two reads may reach different nodes: each waits until its node has read the creation.
      const position = String(organization.body['position']);
      const raw = (acceptEncoding?: string) =>
        new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
          const asked = request(
            `${proxy.url}/organizations/${id}?minPosition=${position}`,
            { headers: { ...headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) } },
            (answer) => {
              const chunks: Buffer[] = [];
              answer.on('data', (chunk: Buffer) => chunks.push(chunk));
              answer.on('end', () =>
                resolve({ encoding: answer.headers['content-encoding'], body: Buffer.concat(chunks) }),
              );
            },
          );
          asked.on('error', reject);
          asked.end();
        });
      const plain = await raw();
      expect(plain.encoding).toBeUndefined();
      const compressed = await raw('gzip, deflate, br');
      expect(compressed.encoding).toBe('gzip');
      expect(compressed.body.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(gunzipSync(compressed.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));

      const subscriber = JSON.parse(
        chorusCli(
          dataDirs[0] as string,
          shared,
          'api-key:create',
          '--name',
          'flags',
          '--scopes',
          'entitlements:read',
          '--json',
        ),
      ) as { key: string };
      const changes = await openEventStream(`${proxy.url}/entitlements/changes`, {
        authorization: `Bearer ${subscriber.key}`,
        'accept-encoding': 'gzip',
      });
      try {
        expect(changes.status).toBe(200);
        expect(changes.headers.get('content-encoding')).toBeNull();
        expect(
          (await call(proxy.url, 'POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' })).status,
        ).toBe(200);
        // Each event arrives on its own, not once a compression buffer fills.
        for (;;) {
          const event = await changes.next(10_000);
          if (
            event.event === 'entitlements' &&
            (JSON.parse(event.data) as { organizationId: string }).organizationId === id
          )
            break;
        }
      } finally {
        changes.close();
      }
    }, 60_000);

    it('mails the owner once per traffic threshold when usage reports crossing it arrive on both nodes at once', async () => {
      const collector = JSON.parse(
        chorusCli(
          dataDirs[0] as string,
          shared,
          'api-key:create',
          '--name',
          'collector',
          '--scopes',
          'usage:write',
          '--json',
        ),
      ) as { key: string };
      const organization = await call(proxy.url, 'POST', '/organizations', { name: 'Busy Month' });
      const id = organization.body['id'] as string;
      expect(
        (await call(proxy.url, 'POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'essential' })).status,
      ).toBe(200);
      expect(
        (await call(proxy.url, 'POST', `/organizations/${id}/members`, { email: 'owner@busy.example', role: 'owner' }))
          .status,
      ).toBe(201);
      const occurredAt = new Date().toISOString();
      // 20 calls of 30,000 page views split across the nodes: 600,000 of an allowance of 500,000.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          fetch(`${(nodes[index % 2] as ApiNode).url}/usage`, {
            method: 'POST',
            headers: { authorization: `Bearer ${collector.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              reports: [{ id: `busy-${index}`, organizationId: id, quantity: 30_000, occurredAt }],
            }),
          }).then((answer) => answer.status),
        ),
      );
      expect(answers).toEqual(answers.map(() => 202));

      const thresholdMails = (words: RegExp) =>
        inbox.received.filter((mail) => mail.to.includes('owner@busy.example') && words.test(mail.raw)).length;
      await eventually(
        'both threshold mails',
        () =>
          thresholdMails(/used 80% of its traffic allowance/) >= 1 &&
          thresholdMails(/has used its traffic allowance/) >= 1,
      );
      await sleep((MAIL_CLAIM_SECONDS + 1) * 1_000);
      expect([
        thresholdMails(/used 80% of its traffic allowance/),
        thresholdMails(/has used its traffic allowance/),
      ]).toEqual([1, 1]);
    }, 120_000);

    it('applies a Stripe event delivered 20 times across the nodes once, and ends in the newest state however the nodes race', async () => {
      const id = (await call(proxy.url, 'POST', '/organizations', { name: 'Stripe Co' })).body['id'] as string;
      const deliver = (url: string, event: Record<string, unknown>) => {
        const payload = JSON.stringify(event);
        const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
        return fetch(`${url}/billing/stripe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as Record<string, unknown> }));
      };
      const sub = (items: SubscriptionItemShape[]) =>
        subscriptionObject({ id: `sub_${id}`, organizationId: id, items });
      const bases = [proxy.url, ...nodes.map((node) => node.url)];
      const created = stripeEvent(
        'customer.subscription.created',
        sub([
          { price: 'p_pro', product: 'prod_pro' },
          { price: 'p_acs', product: 'prod_acs', quantity: 2 },
        ]),
        1_800_000_000,
      );
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => deliver(bases[index % bases.length] as string, created)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      expect(answers.filter((answer) => answer.body['duplicate'] === false)).toHaveLength(1);
      const recorded = await store.readStream(organizationStream(id));
      expect((recorded.found ? recorded.events : []).map((event) => event.type)).toEqual([
        'OrganizationCreated',
        'StripeCustomerBound',
        'SubscriptionChanged',
        'PlanAssigned',
        'AddOnPurchased',
      ]);

      // Older and newer changes of the subscription at once, on both nodes: the newest wins.
      const changes = Array.from({ length: 10 }, (_, index) =>
        stripeEvent(
          'customer.subscription.updated',
          sub([
            { price: 'p_ess', product: 'prod_ess' },
            { price: 'p_acs', product: 'prod_acs', quantity: index + 1 },
          ]),
          1_800_000_100 + index,
        ),
      );
      const newest = stripeEvent(
        'customer.subscription.updated',
        sub([
          { price: 'p_pro', product: 'prod_pro' },
          { price: 'p_acs', product: 'prod_acs', quantity: 20 },
        ]),
        1_800_000_200,
      );
      await Promise.all([newest, ...changes].map((event, index) => deliver((nodes[index % 2] as ApiNode).url, event)));
      const head = (await call(proxy.url, 'GET', `/organizations/${id}`)).body['position'] as number;
      const [a, b] = await Promise.all(
        nodes.map((node) => call(node.url, 'GET', `/organizations/${id}?minPosition=${head}`)),
      );
      for (const view of [a, b])
        expect(view?.body).toMatchObject({ plan: 'professional', addOns: { additionalContentSection: 20 } });
    }, 60_000);

    it('mails once the invitation of an add answered by a node killed right after: the other node takes it over', async () => {
      const organization = await call(proxy.url, 'POST', '/organizations', { name: 'Killed Right After' });
      const id = organization.body['id'] as string;
      expect(
        (await call(proxy.url, 'POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'professional' })).status,
      ).toBe(200);
      const emails = Array.from({ length: 6 }, (_, index) => `killed-${index}@after.example`);
      // The mail server answers "try again later" until the kill: nothing was handed over before it (a mail
      // accepted by the server and not yet recorded as mailed when its sender dies would go twice).
      inbox.refusing = true;
      const answers = await Promise.all(
        emails.map((email) =>
          call((nodes[0] as ApiNode).url, 'POST', `/organizations/${id}/members`, { email, role: 'member' }),
        ),
      );
      await killNode(0);
      inbox.refusing = false;
      expect(answers.map((answer) => answer.status)).toEqual(emails.map(() => 201));

      await eventually(
        'each invitation mailed, by the surviving node',
        () => emails.every((email) => mailsTo(email) >= 1),
        60_000,
      );
      // Node A back (its own DATA_DIR, its own checkpoint from before the adds): it finds them mailed.
      await restartNode(0);
      await sleep((MAIL_CLAIM_SECONDS + 2) * 1_000);
      expect(emails.map(mailsTo)).toEqual(emails.map(() => 1));
    }, 120_000);

    it('loses no acknowledged write when a node is killed with SIGKILL under 20 clients; the proxy sends the rest to the survivor', async () => {
      const load = underLoad(20);
      await eventually('writes through both nodes', () => load.acknowledged.length >= 100, 60_000);
      await killNode(1);
      const atKill = load.acknowledged.length;
      await eventually('writes go on through the survivor', () => load.acknowledged.length >= atKill + 200, 60_000);
      const failuresAfterKill = load.failures.length;
      await sleep(1_000);
      await load.stop();
      // Only requests in flight on the killed node can fail; after that, the proxy passes it over.
      expect(load.failures.length).toBe(failuresAfterKill);
      expect(load.failures.length).toBeLessThanOrEqual(20);
      expect(await missingFromStore(load.acknowledged)).toEqual([]);
      await restartNode(1);
    }, 180_000);

    it('loses no acknowledged write when PostgreSQL restarts under load, and both nodes go on without a restart', async () => {
      const load = underLoad(20);
      await eventually('writes before the restart', () => load.acknowledged.length >= 100, 60_000);
      await (postgres as PostgresServer).restart(async () => {
        await sleep(1_000);
      });
      const atRestart = load.acknowledged.length;
      await eventually('writes after the restart', () => load.acknowledged.length >= atRestart + 100, 60_000);
      await load.stop();
      expect(await missingFromStore(load.acknowledged)).toEqual([]);
      // Both nodes lived through it: each, asked directly, writes and reads again (its pool and its subscription
      // recovered).
      const alive = (node: ApiNode) => ({
        node: node.name,
        exited: node.child.exitCode ?? node.child.signalCode,
        stderr: node.child.exitCode === null ? '' : node.stderr(),
      });
      expect(nodes.map(alive)).toEqual(nodes.map((node) => ({ node: node.name, exited: null, stderr: '' })));
      for (const node of nodes) {
        const created = await call(node.url, 'POST', '/organizations', { name: `After restart ${node.name}` });
        expect(created.status).toBe(201);
        const id = created.body['id'] as string;
        await eventually(
          `${node.name} reads its own write`,
          async () => (await call(node.url, 'GET', `/organizations/${id}`)).status === 200,
          30_000,
        );
        const other = nodes.find((candidate) => candidate !== node) as ApiNode;
        await eventually(
          `the other node reads ${node.name}'s write`,
          async () => (await call(other.url, 'GET', `/organizations/${id}`)).status === 200,
          30_000,
        );
      }
    }, 180_000);
  },
);
