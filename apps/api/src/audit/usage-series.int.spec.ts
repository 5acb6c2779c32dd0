// History's usage over time on a real embedded store and its read models: an organization past the first page of its
// stream is read as a page folded from the stream and the model's rows after it. The answer must be the one a fold of
// the whole stream gives, whether the rows came from a rebuild or from the live projector, and across the seam.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createPlanCatalogue,
  evolve,
  governingPlan,
  initialOrganizationState,
  LIMIT_EVENT_TYPES,
  organizationLimits,
  organizationStream,
  usage,
  USAGE_EVENT_TYPES,
  type OrganizationEvent,
  type OrganizationState,
} from '#domain';
import { SqliteEventStore, type EventToAppend } from '#event-store';
import { ReadModels, USAGE_ROWS_FROM_REVISION } from '#read-models';
import { MAX_USAGE_POINTS, organizationUsageSeries, UsageSeries, type UsageSeriesAnswer } from './usage-series.js';

const catalogue = createPlanCatalogue();
const metadata = { actor: 'cli', correlationId: 'usage', causationId: 'usage' };
const MINUTE = 60_000;

let dataDir: string;
let store: SqliteEventStore;
let readModels: ReadModels;
let clock = Date.parse('2031-03-01T00:00:00.000Z');

/** Members come and go, sites are added, and the limits move now and then: right before, at and after the seam. */
function eventsFrom(revision: number, count: number): { type: string; data: Record<string, unknown> }[] {
  return Array.from({ length: count }, (_, index) => {
    const at = revision + index;
    if (at === 0) return { type: 'OrganizationCreated', data: { id: 'large', name: 'Large' } };
    if (at === 1) return { type: 'PlanAssigned', data: { line: 'classic', plan: 'professional' } };
    if (at % 97 === 0 || (at >= USAGE_ROWS_FROM_REVISION - 2 && at <= USAGE_ROWS_FROM_REVISION + 1))
      return { type: 'LimitsConfigured', data: { users: 200 + (at % 300), override: at % 2 === 0 } };
    if (at % 89 === 0) return { type: 'AddOnPurchased', data: { addOn: 'additionalContentSection', quantity: 1 } };
    if (at % 61 === 0)
      return { type: 'SiteAdded', data: { siteId: `site-${at}`, name: 'Shop', hostname: `s${at}.example` } };
    if (at % 7 === 3) return { type: 'MemberRemoved', data: { userId: `member-${at - 1}` } };
    return {
      type: 'MemberAdded',
      data: {
        userId: `member-${at}`,
        email: `m${at}@example.com`,
        role: at === 2 ? 'owner' : 'member',
        chorusUser: false,
      },
    };
  });
}

async function append(organizationId: string, revision: number, count: number): Promise<bigint> {
  let position = 0n;
  const events = eventsFrom(revision, count);
  for (let start = 0; start < events.length; start += 100) {
    const batch: EventToAppend[] = events
      .slice(start, start + 100)
      .map((event) => ({ id: randomUUID(), ...event, metadata }));
    // A minute an append: longer than the chart's slots, so some points merge and keep their peaks.
    clock += MINUTE;
    const expected = revision + start === 0 ? 'no_stream' : BigInt(revision + start - 1);
    position = (await store.append(organizationStream(organizationId), batch, expected)).position;
  }
  return position;
}

/** The series as a fold of the whole stream gives it, event by event: what the answer must be. */
async function foldedSeries(organizationId: string): Promise<UsageSeriesAnswer> {
  const read = await store.readStream(organizationStream(organizationId));
  if (!read.found) throw new Error('no stream');
  const events = read.events;
  const last = events.at(-1);
  if (last === undefined) throw new Error('an empty stream');
  const series = new UsageSeries(
    Date.parse(events[0]?.recordedAt ?? ''),
    Date.parse(last.recordedAt),
    MAX_USAGE_POINTS,
    last.revision >= BigInt(MAX_USAGE_POINTS),
  );
  let state: OrganizationState = initialOrganizationState;
  for (const event of events) {
    state = evolve(state, { type: event.type, data: event.data } as OrganizationEvent);
    if (!state.exists || !(LIMIT_EVENT_TYPES.has(event.type) || USAGE_EVENT_TYPES.has(event.type))) continue;
    const limits = organizationLimits(state, catalogue).effective;
    series.record({
      at: event.recordedAt,
      revision: Number(event.revision),
      plan: governingPlan(state, catalogue) !== undefined,
      users: { usage: usage(state).users, limit: limits.users },
      contentSections: { usage: usage(state).contentSections, limit: limits.contentSections },
    });
  }
  return { organizationId, points: series.all(), merged: series.merged };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-usage-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite'), now: () => new Date(clock) });
  await append('large', 0, 1_500);
  await append('small', 0, 40);
  readModels = ReadModels.open({ dataDir, store, catalogue });
});

afterAll(async () => {
  await readModels.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("History's usage over time", () => {
  it('answers what a fold of the whole stream gives, from a rebuild’s rows past the first page', async () => {
    await readModels.rebuild();

    const answer = await organizationUsageSeries(store, readModels.organizations, catalogue, 'large');

    expect(readModels.organizations.usageOf('large').map(([revision]) => revision)).toEqual(
      Array.from({ length: 1_500 - USAGE_ROWS_FROM_REVISION }, (_, index) => USAGE_ROWS_FROM_REVISION + index),
    );
    expect(answer).toEqual(await foldedSeries('large'));
    expect(answer.merged).toBe(true);
    expect(answer.points.length).toBeGreaterThan(10);
  });

  it('answers an organization within its first page from its stream alone, with no rows', async () => {
    expect(readModels.organizations.usageOf('small')).toEqual([]);
    expect(await organizationUsageSeries(store, readModels.organizations, catalogue, 'small')).toEqual(
      await foldedSeries('small'),
    );
  });

  it('answers the same from the live projector’s rows, and for an organization that crosses the seam live', async () => {
    readModels.start();
    await append('large', 1_500, 300);
    const position = await append('small', 40, 1_100);
    expect(await readModels.waitForPosition(position, 20_000)).toBe(true);

    for (const organizationId of ['large', 'small'])
      expect(await organizationUsageSeries(store, readModels.organizations, catalogue, organizationId)).toEqual(
        await foldedSeries(organizationId),
      );
    expect(readModels.organizations.usageOf('small')).toHaveLength(1_140 - USAGE_ROWS_FROM_REVISION);
  });

  it('answers NOT_FOUND for an organization that does not exist', async () => {
    await expect(organizationUsageSeries(store, readModels.organizations, catalogue, 'nobody')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
