// The embedded store's keys: a table of events.sqlite on a connection of its own with secure_delete, so an erased
// key's bytes are overwritten in the file, and the WAL checkpointed and truncated after it, so no copy stays there.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { PERSONAL_KEY_BYTES, PersonalDataErasedError, type PersonalKeyStore } from './personal-keys.port.js';
import { migrateEventStoreSchema } from './sqlite-migrations.js';

type Row = { subject: string; key: Buffer | null };

export class SqlitePersonalKeys implements PersonalKeyStore {
  private readonly statements;

  static open(options: { file: string; busyTimeoutMs?: number; now?: () => Date }): SqlitePersonalKeys {
    const db = new Database(options.file, { timeout: options.busyTimeoutMs ?? 5_000 });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('secure_delete = ON');
      migrateEventStoreSchema(db, undefined, options.now);
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
      create: db.prepare('INSERT INTO personal_keys (subject, key, created_at) VALUES (?, ?, ?) ON CONFLICT (subject) DO NOTHING'),
      erase: db.prepare('INSERT INTO personal_keys (subject, key, created_at, erased_at) VALUES (?, NULL, ?, ?) ON CONFLICT (subject) DO UPDATE SET key = NULL, erased_at = excluded.erased_at WHERE erased_at IS NULL'),
      subjects: db.prepare<[string, string], string>("SELECT subject FROM personal_keys WHERE key IS NOT NULL AND subject >= ? AND subject < ? ORDER BY subject").pluck(),
    };
  }

  find(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    for (const subject of new Set(subjects)) {
      const key = this.statements.one.get(subject)?.key;
      if (key !== undefined && key !== null) found.set(subject, key);
    }
    return Promise.resolve(found);
  }

  obtain(subject: string): Promise<Buffer> {
    const obtain = this.db.transaction(() => {
      this.statements.create.run(subject, randomBytes(PERSONAL_KEY_BYTES), this.now().toISOString());
      return this.statements.one.get(subject)?.key ?? null;
    });
    const key = obtain.immediate();
    return key === null ? Promise.reject(new PersonalDataErasedError(subject)) : Promise.resolve(key);
  }

  obtainAll(subjects: readonly string[]): Promise<Map<string, Buffer>> {
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
    return Promise.resolve(obtain.immediate([...new Set(subjects)]));
  }

  async erase(subject: string): Promise<void> {
    const at = this.now().toISOString();
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

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
