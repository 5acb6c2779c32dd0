import type Database from 'better-sqlite3';

/**
 * Reading a stream's head was most of an append's cost beyond its insert. An entry is trusted only under the write
 * lock and while no other connection has committed since: `PRAGMA data_version` moves exactly then.
 */
export class StreamHeads {
  private readonly revisions = new Map<string, bigint>();
  private since: bigint | undefined;
  /** The write transaction in which data_version was last read: the entries hold until it ends. */
  private checkedIn = -1;
  private readonly dataVersion: Database.Statement;

  constructor(
    db: Database.Database,
    /** Past it, all are forgotten. */
    private readonly capacity = 10_000,
  ) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  lastRevision(streamId: string, transaction: number): bigint | undefined {
    const revision = this.revisions.get(streamId);
    if (this.since !== undefined && (revision === undefined || this.checkedIn === transaction)) return revision;
    // The first lookup reads it too, so that `appended` (called after an insert) reads nothing and cannot fail.
    const version = this.dataVersion.get() as bigint;
    this.checkedIn = transaction;
    if (version === this.since) return revision;
    this.revisions.clear();
    this.since = version;
    return undefined;
  }

  /** Possibly stale: only for a write whose own statement fails when it is (`writeAlone`). */
  lastStored(streamId: string): bigint | undefined {
    return this.revisions.get(streamId);
  }

  appended(streamId: string, revision: bigint): void {
    if (this.revisions.size >= this.capacity && !this.revisions.has(streamId)) this.revisions.clear();
    this.revisions.set(streamId, revision);
  }

  /** A write was undone: entries may name revisions that are not stored. */
  forget(): void {
    this.revisions.clear();
  }
}
