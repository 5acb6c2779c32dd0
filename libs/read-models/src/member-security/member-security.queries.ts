// The sign-in security events of an organization's members, newest first, in pages.
import type { ReadModelDatabase } from '../read-model-database.js';
import { memberSecurityEventsTable } from './member-security.tables.js';

export type MemberSecurityEventLocation = { position: bigint; userId: string; email: string; revision: bigint; type: string };

export class MemberSecurityQueries {
  private readonly selectPage;

  constructor(db: ReadModelDatabase) {
    db.exec(memberSecurityEventsTable.create(memberSecurityEventsTable.name));
    this.selectPage = db.prepare<[string, bigint, number], { position: bigint; user_id: string; email: string; revision: bigint; type: string }>(
      `SELECT position, user_id, email, revision, type FROM ${memberSecurityEventsTable.name}
       WHERE organization_id = ? AND position < ? ORDER BY position DESC LIMIT ?`,
    );
    this.selectPage.safeIntegers(true);
  }

  /** Up to `limit` events before `before` (a position; none: from the newest). */
  page(organizationId: string, limit: number, before?: bigint): MemberSecurityEventLocation[] {
    return this.selectPage
      .all(organizationId, before ?? 9_223_372_036_854_775_807n, limit)
      .map(({ position, user_id: userId, email, revision, type }) => ({ position, userId, email, revision, type }));
  }
}
