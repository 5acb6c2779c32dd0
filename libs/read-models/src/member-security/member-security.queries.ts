import { hasFactorPresent } from '#domain';
import type { Statement } from 'better-sqlite3';
import { membershipsTable } from '../organization/organization.tables.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import {
  memberSecondFactorsTable,
  memberSecurityEventsTable,
  securityMembershipsTable,
} from './member-security.tables.js';

export type MemberSecurityEventLocation = {
  position: bigint;
  userId: string;
  email: string;
  revision: bigint;
  type: string;
};
/** A member's own event an organization sees, where it is in its stream. */
export type MemberEventLocation = {
  position: bigint;
  userId: string;
  streamId: string;
  revision: bigint;
  recordedAt: string;
};

type FactorRow = { user_id: string; authenticator_app: number; passkeys: number };

export class MemberSecurityQueries {
  private readonly selectPage;
  private readonly selectAfter;
  private readonly selectFirstAt;
  private readonly selectEmail;
  private readonly selectOrganizationsOf;
  private readonly selectWithSecondFactor;
  private readonly db: ReadModelDatabase;
  private selectMembersFactors: Statement<[string], FactorRow> | undefined;

  constructor(db: ReadModelDatabase) {
    this.db = db;
    db.exec(memberSecurityEventsTable.create(memberSecurityEventsTable.name));
    this.selectPage = db.prepare<
      [string, bigint, number],
      { position: bigint; user_id: string; email: string; revision: bigint; type: string }
    >(
      `SELECT position, user_id, email, revision, type FROM ${memberSecurityEventsTable.name}
       WHERE organization_id = ? AND listed = 1 AND position < ? ORDER BY position DESC LIMIT ?`,
    );
    this.selectPage.safeIntegers(true);
    this.selectAfter = db
      .prepare<
        [string, bigint, bigint, number],
        { position: bigint; user_id: string; stream_id: string; revision: bigint; recorded_at: string }
      >(
        `SELECT position, user_id, stream_id, revision, recorded_at FROM ${memberSecurityEventsTable.name}
         WHERE organization_id = ? AND position > ? AND position <= ? ORDER BY position LIMIT ?`,
      )
      .safeIntegers(true);
    this.selectFirstAt = db
      .prepare<[string, string], bigint>(
        `SELECT min(position) FROM ${memberSecurityEventsTable.name} WHERE organization_id = ? AND recorded_at >= ?`,
      )
      .pluck()
      .safeIntegers(true);
    db.exec(securityMembershipsTable.create(securityMembershipsTable.name));
    this.selectEmail = db.prepare<[string, string], { email: string }>(
      `SELECT email FROM ${securityMembershipsTable.name} WHERE organization_id = ? AND user_id = ?`,
    );
    this.selectOrganizationsOf = db
      .prepare<[string], string>(
        `SELECT DISTINCT organization_id FROM ${securityMembershipsTable.name} WHERE user_id = ? ORDER BY organization_id`,
      )
      .pluck();
    db.exec(memberSecondFactorsTable.create(memberSecondFactorsTable.name));
    this.selectWithSecondFactor = db.prepare<
      [string],
      { user_id: string; authenticator_app: number; passkeys: number }
    >(
      `SELECT user_id, authenticator_app, passkeys FROM ${memberSecondFactorsTable.name} WHERE user_id IN (SELECT value FROM json_each(?))`,
    );
  }

  /** Those of `userIds` who have a second factor. */
  withSecondFactor(userIds: readonly string[]): ReadonlySet<string> {
    if (userIds.length === 0) return new Set();
    const rows = this.selectWithSecondFactor.all(JSON.stringify(userIds));
    // The domain's rule decides, on what the writer folded: it is not said again here in SQL.
    const withFactor = rows.filter((row) =>
      hasFactorPresent({ authenticatorApp: row.authenticator_app !== 0, passkeys: row.passkeys }),
    );
    return new Set(withFactor.map((row) => row.user_id));
  }

  /**
   * How many of the organization's members have a second factor: the factor rows of its members only, one count for
   * the two-step card however its list is paged.
   */
  membersWithSecondFactor(organizationId: string): number {
    // Prepared when first asked: the members' table is the organization model's, made when its queries are.
    this.selectMembersFactors ??= this.db.prepare<[string], FactorRow>(
      `SELECT f.user_id, f.authenticator_app, f.passkeys FROM ${membershipsTable.name} m
       JOIN ${memberSecondFactorsTable.name} f ON f.user_id = m.user_id WHERE m.organization_id = ?`,
    );
    return this.selectMembersFactors
      .all(organizationId)
      .filter((row) => hasFactorPresent({ authenticatorApp: row.authenticator_app !== 0, passkeys: row.passkeys }))
      .length;
  }

  /** Every organization the person has been a member of, now or earlier: the histories that hold them. */
  organizationsOfPerson(userId: string): string[] {
    return this.selectOrganizationsOf.all(userId);
  }

  memberEmail(organizationId: string, userId: string): string | undefined {
    return this.selectEmail.get(organizationId, userId)?.email;
  }

  /** In the log's order, after `after` and up to `upTo`. */
  after(organizationId: string, after: bigint, upTo: bigint, limit: number): MemberEventLocation[] {
    return this.selectAfter
      .all(organizationId, after, upTo, limit)
      .map(({ position, user_id: userId, stream_id: streamId, revision, recorded_at: recordedAt }) => ({
        position,
        userId,
        streamId,
        revision,
        recordedAt,
      }));
  }

  /** The first member event recorded at or after `time` (ISO), if any. */
  firstAtOrAfter(organizationId: string, time: string): bigint | undefined {
    return this.selectFirstAt.get(organizationId, time) ?? undefined;
  }

  page(organizationId: string, limit: number, before?: bigint): MemberSecurityEventLocation[] {
    return this.selectPage
      .all(organizationId, before ?? 9_223_372_036_854_775_807n, limit)
      .map(({ position, user_id: userId, email, revision, type }) => ({ position, userId, email, revision, type }));
  }
}
