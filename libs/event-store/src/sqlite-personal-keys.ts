// The embedded store's keys: a table in a file of their own beside events.sqlite (PERSONAL_KEYS_FILE), so that making a
// key never holds the log's write lock, with secure_delete, so an erased key's bytes are overwritten in the file, and
// the WAL checkpointed and truncated after it, so no copy stays there. A copy of events.sqlite alone holds no one's
// data.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  PERSONAL_KEY_BYTES,
  PersonalDataErasedError,
  type KeyRecord,
  type PersonalKeyStore,
} from './personal-keys.port.js';
import { migrateEventStoreSchema, PERSONAL_KEY_MIGRATIONS } from './sqlite-migrations.js';

export const PERSONAL_KEYS_FILE = 'personal-keys.sqlite';

type Row = { subject: string; key: Buffer | null };

export class SqlitePersonalKeys implements PersonalKeyStore {
  private readonly statements;
  private readonly waiting: { subject: string; resolve: (key: Buffer) => void; reject: (error: unknown) => void }[] =
    [];

  static open(options: { file: string; busyTimeoutMs?: number; now?: () => Date }): SqlitePersonalKeys {
    const db = new Database(options.file, { timeout: options.busyTimeoutMs ?? 5_000 });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('secure_delete = ON');
      migrateEventStoreSchema(db, PERSONAL_KEY_MIGRATIONS, options.now);
      return new SqlitePersonalKeys(db, options.now ?? (() => new Date()));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private constructor(
    private readonly db: Database.Database,
    private readonly now: () => Date,
  ) {
    this.statements = {
      one: db.prepare<[string], Row>('SELECT subject, key FROM personal_keys WHERE subject = ?'),
      many: db.prepare<[string], Row>(
        'SELECT subject, key FROM personal_keys WHERE subject IN (SELECT value FROM json_each(?))',
      ),
      create: db.prepare(
        'INSERT INTO personal_keys (subject, key, created_at) VALUES (?, ?, ?) ON CONFLICT (subject) DO NOTHING',
      ),
      erase: db.prepare(
        'INSERT INTO personal_keys (subject, key, created_at, erased_at) VALUES (?, NULL, ?, ?) ON CONFLICT (subject) DO UPDATE SET key = NULL, erased_at = excluded.erased_at WHERE erased_at IS NULL',
      ),
      exported: db.prepare<
        [string, number],
        { subject: string; key: Buffer | null; created_at: string; erased_at: string | null }
      >('SELECT subject, key, created_at, erased_at FROM personal_keys WHERE subject > ? ORDER BY subject LIMIT ?'),
      imported: db.prepare(
        'INSERT INTO personal_keys (subject, key, created_at, erased_at) VALUES (?, ?, ?, ?) ON CONFLICT (subject) DO NOTHING',
      ),
      subjects: db
        .prepare<[string, string], string>(
          'SELECT subject FROM personal_keys WHERE key IS NOT NULL AND subject >= ? AND subject < ? ORDER BY subject',
        )
        .pluck(),
    };
  }

  find(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    // One statement for a page's subjects: a rebuild asks for thousands of people at a time.
    const rows = this.statements.many.all(JSON.stringify([...new Set(subjects)]));
    return Promise.resolve(
      new Map(
        rows
          .filter((row): row is { subject: string; key: Buffer } => row.key !== null)
          .map((row) => [row.subject, row.key]),
      ),
    );
  }

  /**
   * Keys asked for together are made in one transaction (a group commit, as the log's appends are): each new member's
   * key would otherwise cost a sync to disk of its own, holding the file's write lock against the log's appends.
   */
  obtain(subject: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ subject, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => this.makeWaiting());
    });
  }

  private makeWaiting(): void {
    const batch = this.waiting.splice(0);
    try {
      const keys = this.obtainTogether(batch.map((asked) => asked.subject));
      for (const asked of batch) {
        const key = keys.get(asked.subject);
        if (key === undefined) asked.reject(new PersonalDataErasedError(asked.subject));
        else asked.resolve(key);
      }
    } catch (error) {
      for (const asked of batch) asked.reject(error);
    }
  }

  obtainAll(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    return Promise.resolve(this.obtainTogether(subjects));
  }

  private obtainTogether(subjects: readonly string[]): Map<string, Buffer> {
    const obtain = this.db.transaction((all: readonly string[]) => {
      const at = this.now().toISOString();
      const found = new Map<string, Buffer>();
      for (const subject of all) {
        this.statements.create.run(subject, randomBytes(PERSONAL_KEY_BYTES), at);
        const key = this.statements.one.get(subject)?.key;
        if (key !== undefined && key !== null) found.set(subject, key);
      }
      return found;
    });
    // One transaction, one sync to disk, for all of them.
    return obtain.immediate([...new Set(subjects)]);
  }

  erase(subject: string): Promise<void> {
    return this.eraseAt(subject, this.now().toISOString());
  }

  /** An erasure at its own time: now, or when another store made it (a copy keeps its time). */
  private async eraseAt(subject: string, at: string): Promise<void> {
    this.statements.erase.run(subject, at, at);
    // The key's page as it was may still be in the WAL until a checkpoint copies the new one back and truncates it.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (result?.busy === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  subjects(prefix: string): Promise<string[]> {
    // The range [prefix, prefix + U+FFFF): every subject starting with prefix, by the index.
    return Promise.resolve(this.statements.subjects.all(prefix, `${prefix}\uffff`));
  }

  exportKeys(afterSubject: string | undefined, maxCount: number): Promise<KeyRecord[]> {
    return Promise.resolve(
      this.statements.exported.all(afterSubject ?? '', maxCount).map((row) => ({
        subject: row.subject,
        key: row.key,
        createdAt: row.created_at,
        erasedAt: row.erased_at,
      })),
    );
  }

  async importKeys(records: readonly KeyRecord[]): Promise<void> {
    const erasures: KeyRecord[] = [];
    this.db
      .transaction(() => {
        for (const { subject, key, createdAt, erasedAt } of records) {
          this.statements.imported.run(subject, key, createdAt, erasedAt);
          if (key === null) erasures.push({ subject, key, createdAt, erasedAt });
        }
      })
      .immediate();
    // An erasure taken from elsewhere overwrites a key this store held, as an erasure here would.
    for (const { subject, erasedAt } of erasures)
      if (this.statements.one.get(subject)?.key !== null)
        await this.eraseAt(subject, erasedAt ?? this.now().toISOString());
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
