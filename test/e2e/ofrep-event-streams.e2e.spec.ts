// OFREP's change notifications (open-feature/protocol ADR-0008) against a started server: the bulk evaluation
// names the event stream, OpenFeature's stock web provider follows a change on it without polling, an
// organization's key reaches its own organization's events only, and traffic reports are sent coalesced (at
// most one change per organization per second, on the injectable clock) on both change streams.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { EventSource as NodeEventSource, type EventSourceInit } from 'eventsource';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { systemClock } from '#identity';
import { AppClock } from '#api';
import { createApiKey } from '../support/api-keys.js';
import { openEventStream, type EventStreamReader, type ServerSentEvent } from '../support/event-stream.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { SteppedClock } from '../support/stepped-clock.js';

let running: RunningApp;
let admin: HttpClient;
let acme: string;
let globex: string;
let acmeKey: string;
let globexKey: string;
const readers: EventStreamReader[] = [];

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function bulk(key: string, organizationId: string) {
  const response = await fetch(`${running.baseUrl}/ofrep/v1/evaluate/flags`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(key) },
    body: JSON.stringify({ context: { targetingKey: organizationId } }),
  });
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function stream(path: string, key: string): Promise<EventStreamReader> {
  const reader = await openEventStream(`${running.baseUrl}${path}`, bearer(key));
  readers.push(reader);
  return reader;
}

const dataOf = (event: ServerSentEvent) => JSON.parse(event.data) as Record<string, unknown>;

beforeAll(async () => {
  running = await startApp({ LOG_LEVEL: 'warn' });
  admin = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
  acme = await createOrganization(admin, { plan: { line: 'classic', plan: 'enterprise' }, limits: { users: 3 } });
  globex = await createOrganization(admin, { plan: { line: 'chorus', plan: 'teams' }, chorus: { enabled: true } });
  acmeKey = await createApiKey(running.app, ['entitlements:read'], 'acme only', acme);
  globexKey = await createApiKey(running.app, ['entitlements:read'], 'globex only', globex);
});

afterEach(() => {
  for (const reader of readers.splice(0)) reader.close();
  running.app.get(AppClock).pin(systemClock);
});

afterAll(async () => {
  await OpenFeature.close();
  await running.close();
});

describe("OFREP's event streams (ADR-0008)", () => {
  it('names the event stream in the bulk evaluation, on the OFREP origin', async () => {
    const answer = await bulk(acmeKey, acme);
    expect(answer.status).toBe(200);
    expect(answer.body.eventStreams).toEqual([
      { type: 'sse', endpoint: { requestUri: `/ofrep/v1/event-stream?targetingKey=${acme}` } },
    ]);
  });

  it('sends refetchEvaluation with the new ETag, which the stock web provider follows without polling', async () => {
    // The stock provider opens `new EventSource(url)`; Node 20 has none, so the client supplies one, as a
    // service would: the `eventsource` package, sending the same bearer key the provider's own requests send.
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    class KeyedEventSource extends NodeEventSource {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, {
          ...init,
          fetch: (input, request) => fetch(input, { ...request, headers: { ...request?.headers, ...bearer(acmeKey) } }),
        });
        this.addEventListener('open', () => opened());
      }
    }
    const global = globalThis as { EventSource?: unknown };
    global.EventSource = KeyedEventSource;
    try {
      await OpenFeature.setContext({ targetingKey: acme });
      await OpenFeature.setProviderAndWait(
        new OFREPWebProvider({
          baseUrl: running.baseUrl,
          headers: [['Authorization', `Bearer ${acmeKey}`]],
          cacheMode: 'disabled',
          pollInterval: 0,
        }),
      );
      const flags = OpenFeature.getClient();
      expect(flags.getObjectValue('limits.users', {})).toMatchObject({ limit: 3 });
      await open;

      const changed = new Promise<unknown>((resolve) => flags.addHandler(ProviderEvents.ConfigurationChanged, resolve));
      expect((await admin.put(`/organizations/${acme}/limits`, { users: 7 })).status).toBe(200);
      await changed;
      expect(flags.getObjectValue('limits.users', {})).toMatchObject({ limit: 7 });
    } finally {
      await OpenFeature.clearProviders();
      delete global.EventSource;
    }
  });

  it("carries the organization's own events only, refuses another's as OFREP refuses its evaluation, and needs credentials", async () => {
    const acmeEvents = await stream(`/ofrep/v1/event-stream?targetingKey=${acme}`, acmeKey);
    const globexEvents = await stream(`/ofrep/v1/event-stream?targetingKey=${globex}`, globexKey);
    expect([acmeEvents.status, acmeEvents.headers.get('content-type')]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
    ]);

    expect((await admin.put(`/organizations/${globex}/limits`, { users: 9 })).status).toBe(200);
    const globexChange = await globexEvents.next();
    expect({ event: globexChange.event, data: dataOf(globexChange) }).toEqual({
      event: 'message',
      data: { type: 'refetchEvaluation', etag: (await bulk(globexKey, globex)).etag },
    });
    expect(globexChange.id).toMatch(/^\d+$/);

    // The first event acme's stream gets is acme's own: globex's change was not sent to it.
    expect((await admin.put(`/organizations/${acme}/limits`, { users: 8 })).status).toBe(200);
    expect(dataOf(await acmeEvents.next())).toEqual({
      type: 'refetchEvaluation',
      etag: (await bulk(acmeKey, acme)).etag,
    });

    const refused = await fetch(`${running.baseUrl}/ofrep/v1/event-stream?targetingKey=${globex}`, {
      headers: bearer(acmeKey),
    });
    const unknown = await fetch(`${running.baseUrl}/ofrep/v1/event-stream?targetingKey=no-such-organization`, {
      headers: bearer(acmeKey),
    });
    const refusedBody = await refused.json();
    expect([refused.status, refusedBody]).toEqual([unknown.status, await unknown.json()]);
    expect(refusedBody).toMatchObject({ errorCode: 'INVALID_CONTEXT' });
    expect((await bulk(acmeKey, globex)).body).toEqual(refusedBody);
    expect((await fetch(`${running.baseUrl}/ofrep/v1/event-stream?targetingKey=${acme}`)).status).toBe(401);
  });

  it('sends traffic reports as one change per organization per second, on both change streams', async () => {
    const initech = await createOrganization(admin, {
      plan: { line: 'chorus', plan: 'teams' },
      chorus: { enabled: true },
    });
    const key = await createApiKey(running.app, ['entitlements:read'], 'initech only', initech);
    const collector = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['usage:write'], 'initech collector', initech),
    });
    // Ahead of the change its creation sent on the system clock; a sleep ends only when the test advances it.
    const clock = new SteppedClock(new Date(Date.now() + 5_000));
    running.app.get(AppClock).pin(clock);
    const ofrepEvents = await stream(`/ofrep/v1/event-stream?targetingKey=${initech}`, key);
    const chorusEvents = await stream('/entitlements/changes', key);
    const report = async (index: number) => {
      const answer = await collector.post('/usage', {
        reports: [{ id: `r-${index}`, organizationId: initech, quantity: 10, occurredAt: clock.now().toISOString() }],
      });
      expect(answer.status).toBe(202);
    };
    const traffic = async () => {
      const answer = await bulk(key, initech);
      const flag = (answer.body.flags as { key: string; value: { used: number } }[]).find(
        (candidate) => candidate.key === 'limits.trafficPerMonth',
      );
      return { used: flag?.value.used, etag: answer.etag };
    };

    await report(0);
    const first = await traffic();
    expect(first.used).toBe(10);
    expect(dataOf(await ofrepEvents.next())).toEqual({ type: 'refetchEvaluation', etag: first.etag });
    expect(dataOf(await chorusEvents.next())).toMatchObject({ organizationId: initech, etag: first.etag });

    for (let index = 1; index < 20; index += 1) await report(index);
    const last = await traffic();
    expect(last.used).toBe(200);
    clock.advance(1_000);
    expect(dataOf(await ofrepEvents.next())).toEqual({ type: 'refetchEvaluation', etag: last.etag });
    expect(dataOf(await chorusEvents.next())).toMatchObject({ organizationId: initech, etag: last.etag });

    // Nothing else came of the 20 reports: the next event is the one of the next change.
    expect((await admin.put(`/organizations/${initech}/limits`, { users: 4 })).status).toBe(200);
    const afterLimits = (await bulk(key, initech)).etag;
    expect(dataOf(await ofrepEvents.next())).toEqual({ type: 'refetchEvaluation', etag: afterLimits });
    expect(dataOf(await chorusEvents.next())).toMatchObject({ organizationId: initech, etag: afterLimits });
  });
});
