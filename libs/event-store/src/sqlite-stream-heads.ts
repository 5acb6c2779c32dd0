import type Database from 'better-sqlite3';

/**
 * The last revision of the streams this connection appended to, so that the next append to one of them need
 * not read its stream's head (the read was most of what an append's transaction costs beyond its insert).
 * An entry is trusted only inside a write transaction, under the write lock,
 * and only while no other connection (another process, an operator deleting a stream) has committed since the
 * entries were made: `PRAGMA data_version` moves exactly then, and is read once per transaction that uses one.
 */
export class StreamHeads {
  private readonly revisions = new Map<string, bigint>();
  /** data_version read before every entry was made: while it reads the same, no other connection committed. */
  private since: bigint | undefined;
  /** The write transaction in which data_version was last read: the entries hold until it ends. */
  private checkedIn = -1;
  private readonly dataVersion: Database.Statement;

  constructor(
    db: Database.Database,
    /** At most this many streams are remembered; past it, they are all forgotten. */
    private readonly capacity = 10_000,
  ) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** The stream's last revision, if this connection appended to it and nobody else has committed since. */
  lastRevision(streamId: string, transaction: number): bigint | undefined {
    const revision = this.revisions.get(streamId);
    if (this.since !== undefined && (revision === undefined || this.checkedIn === transaction)) return revision;
    // The first lookup reads it too, so that `appended` (called after an insert) reads nothing and cannot fail.
    const version = this.dataVersion.get() as bigint;
    this.checkedIn = transaction;
    if (version === this.since) return revision;
    // Another connection committed: any stream may have moved on or been deleted.
    this.revisions.clear();
    this.since = version;
    return undefined;
  }

  /**
   * The stream's last revision as this connection last stored it, even if another connection may have appended
   * or deleted since: only for a write whose own statement fails when that happened (`writeAlone`).
   */
  lastStored(streamId: string): bigint | undefined {
    return this.revisions.get(streamId);
  }

  /** A write (which looked its stream up first) stored the stream up to `revision` (undone by `forget` if rolled back). */
  appended(streamId: string, revision: bigint): void {
    if (this.revisions.size >= this.capacity && !this.revisions.has(streamId)) this.revisions.clear();
    this.revisions.set(streamId, revision);
  }

  /** Some write of the current transaction was undone: its entries may name revisions that are not stored. */
  forget(): void {
    this.revisions.clear();
  }
}
