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

const report = (organizationId: string, id: string, quantity: number) => ({ id, organizationId, quantity, occurredAt: now });
const traffic = async (organizationId: string) =>
  (await entitlements.post('/ofrep/v1/evaluate/flags/limits.trafficPerMonth', { context: { targetingKey: organizationId } })).body.value as { limit: number; used: number; exceeded: boolean };

beforeAll(async () => {
  running = await startApp({ LOG_LEVEL: 'warn' });
  admin = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']) });
  collector = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['usage:write']) });
  entitlements = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['entitlements:read']) });
  auditor = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:read', 'audit:read']) });
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
    const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => collector.post('/usage', { reports: [report(organizationId, `big-${index}`, 10_000)] })));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    const stream = await running.store.readStream(trafficStream(organizationId, trafficPeriodOf(now)));
    const crossed = stream.found ? stream.events.filter((event) => event.type === 'TrafficThresholdCrossed').map((event) => (event.data as { threshold: number }).threshold) : [];
    expect(crossed.sort()).toEqual([100, 80]);
    expect(await traffic(organizationId)).toMatchObject({ used: 600_000, remaining: 0, exceeded: true });

    // The organization's own history lists each crossing once, with its threshold, in words for auditors.
    const history = await auditor.get(`/organizations/${organizationId}/history?limit=1000`);
    const reached = (history.body.events as { type: string; data: { threshold: number; period: string } }[]).filter((event) => event.type === 'TrafficThresholdReached');
    expect(reached.map((event) => event.data.threshold).sort()).toEqual([100, 80]);
    expect(reached.every((event) => event.data.period === trafficPeriodOf(now))).toBe(true);
    const timeline = await auditor.get(`/organizations/${organizationId}/history/events?type=TrafficThresholdReached`);
    expect(JSON.stringify(timeline.body)).toContain("80% of");

    // The same reports again (a collector retrying): nothing counted, nothing recorded twice.
    await collector.post('/usage', { reports: [report(organizationId, 'big-0', 10_000)] });
    const again = await auditor.get(`/organizations/${organizationId}/history?limit=1000`);
    expect((again.body.events as { type: string }[]).filter((event) => event.type === 'TrafficThresholdReached')).toHaveLength(2);
  });

  it('takes a full batch of 1,000 reports in one call (a body above the 16 KiB of other routes), and refuses more', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const reports = Array.from({ length: 1_000 }, (_, index) => ({ ...report(organizationId, `batch-${index}-${'x'.repeat(60)}`, 1), siteId: `site-${'s'.repeat(40)}` }));
    expect(JSON.stringify({ reports }).length).toBeGreaterThan(100_000);
    const full = await collector.post('/usage', { reports });
    expect({ status: full.status, accepted: full.body.accepted }).toEqual({ status: 202, accepted: 1_000 });
    expect((await traffic(organizationId)).used).toBe(1_000);

    const tooMany = await collector.post('/usage', { reports: [...reports, report(organizationId, 'one-more', 1)] });
    expect(tooMany.status).toBe(400);
    const padded = reports.map((entry) => ({ ...entry, id: `${entry.id}-${'p'.repeat(120)}`, siteId: 's'.repeat(200) }));
    expect((await collector.post('/usage', { reports: [...padded, ...padded, ...padded] })).status).toBe(413);
    // Other routes keep their small limit.
    expect((await admin.post('/organizations', { name: 'n'.repeat(20_000) })).status).toBe(413);
    expect((await traffic(organizationId)).used).toBe(1_000);
  });

  it('refuses a call that names an unknown organization, a malformed report or another organization than its key, counting nothing', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const unknown = await collector.post('/usage', { reports: [report(organizationId, 'u-1', 5), report('no-such-organization', 'u-2', 5)] });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 422, code: 'UNKNOWN_ORGANIZATION' });
    expect((await collector.post('/usage', { reports: [{ ...report(organizationId, 'u-3', 5), quantity: -1 }] })).status).toBe(400);
    expect((await collector.post('/usage', { reports: [] })).status).toBe(400);

    const other = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const bound = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['usage:write'], 'bound', other) });
    expect((await bound.post('/usage', { reports: [report(organizationId, 'u-4', 5)] })).status).toBe(403);
    expect((await entitlements.post('/usage', { reports: [report(organizationId, 'u-5', 5)] })).status).toBe(403);
    expect((await traffic(organizationId)).used).toBe(0);

    expect((await bound.post('/usage', { reports: [report(other, 'u-6', 5)] })).status).toBe(202);
    expect((await traffic(other)).used).toBe(5);
  });
});
