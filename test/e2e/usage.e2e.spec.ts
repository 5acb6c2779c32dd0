// POST /usage: traffic reports counted exactly once by id (also delivered 100 times at once), the allowance's
// thresholds recorded once per period under concurrent reports, and nothing counted from a refused call.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { trafficPeriodOf, trafficStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let admin: HttpClient;
let collector: HttpClient;
let entitlements: HttpClient;
let auditor: HttpClient;
const now = new Date().toISOString();

const report = (organizationId: string, id: string, quantity: number) => ({
  id,
  organizationId,
  quantity,
  occurredAt: now,
});
const traffic = async (organizationId: string) =>
  (
    await entitlements.post('/ofrep/v1/evaluate/flags/limits.trafficPerMonth', {
      context: { targetingKey: organizationId },
    })
  ).body.value as { limit: number; used: number; exceeded: boolean };

beforeAll(async () => {
  running = await startApp({ LOG_LEVEL: 'warn' });
  admin = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
  collector = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['usage:write']) });
  entitlements = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['entitlements:read']) });
  auditor = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'audit:read']),
  });
});

afterAll(async () => {
  await running.close();
});

describe('usage reports', () => {
  it('counts a report once however often, and however concurrently, it is delivered', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const reports = Array.from({ length: 10 }, (_, index) => report(organizationId, `r-${index}`, 100));
    const answers = await Promise.all(Array.from({ length: 100 }, () => collector.post('/usage', { reports })));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    expect(answers.reduce((sum, answer) => sum + (answer.body.accepted as number), 0)).toBe(10);
    expect(answers.reduce((sum, answer) => sum + (answer.body.duplicates as number), 0)).toBe(990);
    expect(await traffic(organizationId)).toMatchObject({ limit: 500_000, used: 1_000, exceeded: false });
  });

  it('records the 80% and 100% thresholds once each under concurrent reports, and refuses nothing for traffic', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    // 60 concurrent calls of 10,000 each: 600,000 of an allowance of 500,000.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        collector.post('/usage', { reports: [report(organizationId, `big-${index}`, 10_000)] }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    const stream = await running.store.readStream(trafficStream(organizationId, trafficPeriodOf(now)));
    const crossed = stream.found
      ? stream.events
          .filter((event) => event.type === 'TrafficThresholdCrossed')
          .map((event) => (event.data as { threshold: number }).threshold)
      : [];
    expect(crossed.sort()).toEqual([100, 80]);
    expect(await traffic(organizationId)).toMatchObject({ used: 600_000, remaining: 0, exceeded: true });

    // The organization's own history lists each crossing once, with its threshold, in words for auditors.
    const history = await auditor.get(`/organizations/${organizationId}/history?limit=1000`);
    const reached = (history.body.events as { type: string; data: { threshold: number; period: string } }[]).filter(
      (event) => event.type === 'TrafficThresholdReached',
    );
    expect(reached.map((event) => event.data.threshold).sort()).toEqual([100, 80]);
    expect(reached.every((event) => event.data.period === trafficPeriodOf(now))).toBe(true);
    const timeline = await auditor.get(`/organizations/${organizationId}/history/events?type=TrafficThresholdReached`);
    expect(JSON.stringify(timeline.body)).toContain('80% of');

    // The same reports again (a collector retrying): nothing counted, nothing recorded twice.
    await collector.post('/usage', { reports: [report(organizationId, 'big-0', 10_000)] });
    const again = await auditor.get(`/organizations/${organizationId}/history?limit=1000`);
    expect(
      (again.body.events as { type: string }[]).filter((event) => event.type === 'TrafficThresholdReached'),
    ).toHaveLength(2);
  });

  it('takes a full batch of 1,000 reports in one call (a body above the 16 KiB of other routes), and refuses more', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const reports = Array.from({ length: 1_000 }, (_, index) => ({
      ...report(organizationId, `batch-${index}-${'x'.repeat(60)}`, 1),
      siteId: `site-${'s'.repeat(40)}`,
    }));
    expect(JSON.stringify({ reports }).length).toBeGreaterThan(100_000);
    const full = await collector.post('/usage', { reports });
    expect({ status: full.status, accepted: full.body.accepted }).toEqual({ status: 202, accepted: 1_000 });
    expect((await traffic(organizationId)).used).toBe(1_000);

    const tooMany = await collector.post('/usage', { reports: [...reports, report(organizationId, 'one-more', 1)] });
    expect(tooMany.status).toBe(400);
    const padded = reports.map((entry) => ({
      ...entry,
      id: `${entry.id}-${'p'.repeat(120)}`,
      siteId: 's'.repeat(200),
    }));
    expect((await collector.post('/usage', { reports: [...padded, ...padded, ...padded] })).status).toBe(413);
    // Other routes keep their small limit.
    expect((await admin.post('/organizations', { name: 'n'.repeat(20_000) })).status).toBe(413);
    expect((await traffic(organizationId)).used).toBe(1_000);
  });

  it('refuses a call that names an unknown organization, a malformed report or another organization than its key, counting nothing', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const unknown = await collector.post('/usage', {
      reports: [report(organizationId, 'u-1', 5), report('no-such-organization', 'u-2', 5)],
    });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 422, code: 'UNKNOWN_ORGANIZATION' });
    expect(
      (await collector.post('/usage', { reports: [{ ...report(organizationId, 'u-3', 5), quantity: -1 }] })).status,
    ).toBe(400);
    expect((await collector.post('/usage', { reports: [] })).status).toBe(400);

    const other = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const bound = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['usage:write'], 'bound', other),
    });
    expect((await bound.post('/usage', { reports: [report(organizationId, 'u-4', 5)] })).status).toBe(403);
    expect((await entitlements.post('/usage', { reports: [report(organizationId, 'u-5', 5)] })).status).toBe(403);
    expect((await traffic(organizationId)).used).toBe(0);

    expect((await bound.post('/usage', { reports: [report(other, 'u-6', 5)] })).status).toBe(202);
    expect((await traffic(other)).used).toBe(5);
  });

  it('counts this month and the last only: a flood of 1,000 months is rejected report by report, and writes no history for them', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const monthsAgo = (months: number) => {
      const at = new Date();
      at.setUTCDate(15);
      at.setUTCMonth(at.getUTCMonth() - months);
      return at.toISOString();
    };
    const reports = Array.from({ length: 1_000 }, (_, index) => ({
      id: `m-${index}`,
      organizationId,
      quantity: 600_000,
      occurredAt: monthsAgo(index),
    }));
    const answer = await collector.post('/usage', { reports });
    expect(answer.status).toBe(202);
    expect({ accepted: answer.body.accepted, duplicates: answer.body.duplicates }).toEqual({
      accepted: 2,
      duplicates: 0,
    });
    const rejected = answer.body.rejected as { index: number; status: number; code: string }[];
    expect(rejected).toHaveLength(998);
    expect(rejected.every((entry) => entry.status === 400 && entry.code === 'OCCURRED_AT_OUT_OF_RANGE')).toBe(true);
    expect(rejected[0]?.index).toBe(2);
    // Two months over the allowance: four thresholds at most, the last month's told as late (its owners are not
    // mailed).
    const history = await auditor.get(`/organizations/${organizationId}/history?limit=1000`);
    const reached = (history.body.events as { type: string; data: { period: string; late?: boolean } }[]).filter(
      (event) => event.type === 'TrafficThresholdReached',
    );
    expect(reached).toHaveLength(4);
    const lastMonth = trafficPeriodOf(monthsAgo(1));
    expect(reached.filter((event) => event.data.late === true).map((event) => event.data.period)).toEqual([
      lastMonth,
      lastMonth,
    ]);

    // Nothing countable at all: the call is answered as its first rejection, with every one listed.
    const old = await collector.post('/usage', {
      reports: [{ id: 'old', organizationId, quantity: 1, occurredAt: monthsAgo(3) }],
    });
    expect(old.body).toMatchObject({
      status: 400,
      code: 'OCCURRED_AT_OUT_OF_RANGE',
      accepted: 0,
      rejected: [expect.objectContaining({ id: 'old' })],
    });
  });

  it('holds a report id to what it said, in this month and the last: another quantity is REPORT_ID_REUSED, the same again a duplicate', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    expect((await collector.post('/usage', { reports: [report(organizationId, 'same-id', 5)] })).body).toMatchObject({
      accepted: 1,
    });
    const reused = await collector.post('/usage', { reports: [report(organizationId, 'same-id', 6)] });
    expect(reused.body).toMatchObject({ status: 409, code: 'REPORT_ID_REUSED' });
    const lastMonth = new Date();
    lastMonth.setUTCDate(10);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    const inLastMonth = { ...report(organizationId, 'same-id', 5), occurredAt: lastMonth.toISOString() };
    const elsewhere = await collector.post('/usage', { reports: [inLastMonth, report(organizationId, 'same-id', 5)] });
    expect(elsewhere.body).toMatchObject({
      accepted: 0,
      duplicates: 1,
      rejected: [expect.objectContaining({ index: 0, code: 'REPORT_ID_REUSED', status: 409 })],
    });
    const mixed = await collector.post('/usage', {
      reports: [report(organizationId, 'fresh', 1), report(organizationId, 'same-id', 7)],
    });
    expect(mixed.body).toMatchObject({
      accepted: 1,
      duplicates: 0,
      rejected: [expect.objectContaining({ index: 1, code: 'REPORT_ID_REUSED' })],
    });
    expect((await traffic(organizationId)).used).toBe(6);
  });

  it('asks who calls before reading a body: a megabyte of anything from a stranger is 401, from a key without usage:write 403', async () => {
    const raw = `{"reports": [${'x'.repeat(900_000)}`;
    const stranger = httpClient(running.baseUrl);
    const anonymous = await stranger.post('/usage', undefined, {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: anonymous.status, code: anonymous.body.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    const unscoped = await entitlements.post('/usage', undefined, {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: unscoped.status, code: unscoped.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    // With the right key the body is read, and refused for what it is.
    expect(
      (await collector.post('/usage', undefined, { raw, headers: { 'content-type': 'application/json' } })).body.code,
    ).toBe('INVALID_JSON');
  });
});

describe('the entitlement routes are API routes', () => {
  it.each(['/entitlements', '/usage', '/ofrep/v1/configuration'])(
    '%s answers as the API does to a browser, never the page',
    async (path) => {
      const answer = await fetch(`${running.baseUrl}${path}`, { headers: { accept: 'text/html' } });
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    },
  );

  it('says how to cache: never the lists and reports; OFREP privately, revalidated by its ETag', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    expect((await entitlements.get('/entitlements')).headers.get('cache-control')).toBe('no-store');
    expect(
      (await collector.post('/usage', { reports: [report(organizationId, 'c-1', 1)] })).headers.get('cache-control'),
    ).toBe('no-store');
    const bulk = await entitlements.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: organizationId } });
    expect(bulk.headers.get('cache-control')).toBe('private, no-cache');
    expect(bulk.headers.get('etag')).toMatch(/./);
    const one = await entitlements.post('/ofrep/v1/evaluate/flags/limits.users', {
      context: { targetingKey: organizationId },
    });
    expect(one.headers.get('cache-control')).toBe('private, no-cache');
  });
});
