import type Database from 'better-sqlite3';

/** Distinct maxCounts given a statement of their own (the code's page sizes); others bind their LIMIT. */
const MAX_LITERAL_LIMITS = 16;

/**
 * One query with each of its LIMITs written into the SQL: SQLite plans a statement again at every run when
 * its LIMIT is bound (measured: ~10 us of CPU per run, against ~1 us with the LIMIT written in).
 */
export class LimitedStatements {
  private readonly unlimited: Database.Statement;
  private readonly byLimit = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly sql: string,
    private readonly raw: boolean,
  ) {
    this.unlimited = this.prepare(sql);
  }

  all(limit: number | undefined, ...parameters: unknown[]): unknown[] {
    if (limit === undefined) return this.unlimited.all(...parameters);
    let statement = this.byLimit.get(limit);
    if (statement === undefined) {
      if (this.byLimit.size >= MAX_LITERAL_LIMITS) return firstRows(this.unlimited.iterate(...parameters), limit);
      statement = this.prepare(`${this.sql} LIMIT ${Math.trunc(limit)}`);
      this.byLimit.set(limit, statement);
    }
    return statement.all(...parameters);
  }

  private prepare(sql: string): Database.Statement {
    const statement = this.db.prepare(sql);
    return this.raw ? statement.raw(true) : statement;
  }
}

function firstRows(rows: Iterable<unknown>, limit: number): unknown[] {
  const first: unknown[] = [];
  if (limit < 1) return first;
  for (const row of rows) {
    first.push(row);
    if (first.length >= limit) break;
  }
  return first;
}
