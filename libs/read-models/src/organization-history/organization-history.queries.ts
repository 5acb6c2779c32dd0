import type { Statement } from 'better-sqlite3';
import type { ReadModelDatabase } from '../read-model-database.js';
import { organizationEventsTable, organizationRecordNamesTable } from './organization-history.tables.js';

export type HistoryOrder = 'newest' | 'oldest';

export type HistoryFilter = {
  type?: string;
  actor?: string;
  /** ISO-8601 as the store writes them, inclusive. */
  from?: string;
  to?: string;
};

export type HistoryIndexPageRequest = {
  organizationId: string;
  order: HistoryOrder;
  /** Exclusive: the previous page's last revision. */
  after?: bigint;
  limit: number;
  filter?: HistoryFilter;
};

export type IndexedOrganizationEvent = {
  revision: bigint;
  position: bigint;
  eventId: string;
  type: string;
  actor: string;
  recordedAt: string;
  correlationId: string | null;
};

export type HistoryIndexPage = { events: IndexedOrganizationEvent[]; hasMore: boolean };

type EventRow = {
  revision: bigint;
  position: bigint;
  event_id: string;
  type: string;
  actor: string;
  recorded_at: string;
  correlation_id: string | null;
};

/** A member's e-mail, or a site's name (detail: its hostname). */
export type RecordName = { name: string; detail: string | null };

/** Actors listed at most: a filter's choices, not a report. */
export const MAX_LISTED_ACTORS = 500;

const events = organizationEventsTable.name;
const names = organizationRecordNamesTable.name;

export class OrganizationHistoryQueries {
  /** At most 2 orders × 2^5 filter combinations. */
  private readonly pages = new Map<string, Statement<unknown[], EventRow>>();
  private readonly selectNextActor;
  private readonly selectNameAtOrBefore;
  private readonly selectLatestName;
  private readonly selectLatest;

  constructor(private readonly db: ReadModelDatabase) {
    db.exec(organizationEventsTable.create(events));
    db.exec(organizationRecordNamesTable.create(names));
    this.selectNextActor = db.prepare<[string, string], { actor: string }>(
      `SELECT actor FROM ${events} WHERE organization_id = ? AND actor > ? ORDER BY actor LIMIT 1`,
    );
    this.selectNameAtOrBefore = db
      .prepare<[string, string, string, bigint], { name: string; detail: string | null }>(
        `SELECT name, detail FROM ${names} WHERE organization_id = ? AND kind = ? AND key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1`,
      )
      .safeIntegers(true);
    this.selectLatestName = db.prepare<[string, string, string], { name: string; detail: string | null }>(
      `SELECT name, detail FROM ${names} WHERE organization_id = ? AND kind = ? AND key = ? ORDER BY revision DESC LIMIT 1`,
    );
    this.selectLatest = db
      .prepare<[string], { revision: bigint }>(
        `SELECT revision FROM ${events} WHERE organization_id = ? ORDER BY revision DESC LIMIT 1`,
      )
      .safeIntegers(true);
  }

  /** Each filter narrows an index range in revision order, so a page reads about `limit` entries, not the stream. */
  page({ organizationId, order, after, limit, filter = {} }: HistoryIndexPageRequest): HistoryIndexPage {
    const conditions = ['organization_id = ?'];
    const values: unknown[] = [organizationId];
    const add = (condition: string, value: unknown): void => {
      conditions.push(condition);
      values.push(value);
    };
    if (after !== undefined) add(order === 'newest' ? 'revision < ?' : 'revision > ?', after);
    if (filter.type !== undefined) add('type = ?', filter.type);
    if (filter.actor !== undefined) add('actor = ?', filter.actor);
    if (filter.from !== undefined) add('recorded_at >= ?', filter.from);
    if (filter.to !== undefined) add('recorded_at <= ?', filter.to);
    const sql = `SELECT revision, position, event_id, type, actor, recorded_at, correlation_id FROM ${events}
      WHERE ${conditions.join(' AND ')} ORDER BY revision ${order === 'newest' ? 'DESC' : 'ASC'} LIMIT ?`;
    let statement = this.pages.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<unknown[], EventRow>(sql).safeIntegers(true);
      this.pages.set(sql, statement);
    }
    const rows = statement.all(...values, limit + 1);
    return {
      events: rows.slice(0, limit).map((row) => ({
        revision: row.revision,
        position: row.position,
        eventId: row.event_id,
        type: row.type,
        actor: row.actor,
        recordedAt: row.recorded_at,
        correlationId: row.correlation_id,
      })),
      hasMore: rows.length > limit,
    };
  }

  /** One step down the actor index per actor, however many events each has. */
  actors(organizationId: string): string[] {
    const found: string[] = [];
    for (
      let next = this.selectNextActor.get(organizationId, '');
      next !== undefined && found.length < MAX_LISTED_ACTORS;
    ) {
      found.push(next.actor);
      next = this.selectNextActor.get(organizationId, next.actor);
    }
    return found;
  }

  /** At or before `revision`; without one then, the latest ever given: a name is better than an id. */
  nameOf(organizationId: string, kind: 'member' | 'site', key: string, revision: bigint): RecordName | undefined {
    return (
      this.selectNameAtOrBefore.get(organizationId, kind, key, revision) ??
      this.selectLatestName.get(organizationId, kind, key)
    );
  }

  latestRevision(organizationId: string): bigint | undefined {
    return this.selectLatest.get(organizationId)?.revision;
  }
}
