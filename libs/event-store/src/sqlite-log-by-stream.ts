import type Database from 'better-sqlite3';
import type { EnvelopePart, LogEvent, ReadLogByStreamOptions } from './event-store.port.js';
import { logReadOf, logTextOf, type LogRead, type LogRow, type LogText, type LogTextRow } from './sqlite-event-row.js';

/**
 * The text is held while parsed and V8 makes no string past ~512 MB (a rebuild's page is ~130 KB); larger pages go row
 * by row.
 */
export const PAGE_TEXT_LIMIT = 16 * 1024 * 1024;

/** The rest of the stream the previous page ended in, then the streams after it: both ranges of one index. */
export class LogByStream {
  private readonly restOfStream: IndexRange;
  private readonly firstStreams: IndexRange;
  private readonly nextStreams: IndexRange;

  constructor(db: Database.Database, parts: readonly EnvelopePart[]) {
    const text = logTextOf(parts);
    const rows = logReadOf(parts, 'parsed');
    const ranges = (where: string): IndexRange => new IndexRange(db, where, text, rows);
    const streams = (first: '>=' | '>'): IndexRange =>
      ranges(`WHERE stream_id ${first} ? AND stream_id < ? AND position <= ? ORDER BY stream_id, revision LIMIT ?`);
    this.restOfStream = ranges('WHERE stream_id = ? AND revision > ? AND position <= ? ORDER BY revision LIMIT ?');
    this.firstStreams = streams('>=');
    this.nextStreams = streams('>');
  }

  page<P extends EnvelopePart>(options: ReadLogByStreamOptions<P>): LogEvent<P>[] {
    const { streamPrefix, toPosition, after, maxCount } = options;
    if (after !== undefined && !after.streamId.startsWith(streamPrefix))
      throw new RangeError(`${after.streamId} is not a stream of ${streamPrefix}`);
    const events =
      after === undefined ? [] : this.restOfStream.events(after.streamId, after.revision, toPosition, maxCount);
    if (events.length < maxCount) {
      const streams = after === undefined ? this.firstStreams : this.nextStreams;
      const from = after === undefined ? streamPrefix : after.streamId;
      for (const event of streams.events(from, prefixEnd(streamPrefix), toPosition, maxCount - events.length))
        events.push(event);
    }
    return events as LogEvent<P>[];
  }
}

/**
 * The subquery's ORDER BY and LIMIT keep SQLite from flattening it into the aggregate, so group_concat reads it in
 * order.
 */
class IndexRange {
  private readonly asText: Database.Statement;
  private readonly asRows: Database.Statement;

  constructor(
    db: Database.Database,
    where: string,
    private readonly text: LogText,
    private readonly rows: LogRead,
  ) {
    // SQLite computes the two identical group_concat once. NULL: no rows, or a text past the limit.
    this.asText = db
      .prepare(
        `SELECT CASE WHEN octet_length(group_concat(e, ',')) <= ${PAGE_TEXT_LIMIT} THEN group_concat(e, ',') END FROM (SELECT ${text.element} AS e FROM events ${where})`,
      )
      .pluck(true);
    this.asRows = db.prepare(`SELECT ${rows.columns} FROM events ${where}`).raw(true);
  }

  events(...parameters: unknown[]): LogEvent<EnvelopePart>[] {
    const text = this.readText(parameters);
    if (text !== null) return (JSON.parse(`[${text}]`) as LogTextRow[]).map(this.text.toEvent);
    return (this.asRows.all(...parameters) as LogRow[]).map(this.rows.toEvent);
  }

  private readText(parameters: readonly unknown[]): string | null {
    try {
      return this.asText.get(...parameters) as string | null;
    } catch (error) {
      // Past SQLite's own limit on a string (a billion bytes).
      if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_TOOBIG')
        return null;
      throw error;
    }
  }
}

/** In SQLite's binary order of UTF-8, the same as JavaScript's below the surrogates. */
function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  if (prefix === '' || last >= 0xd7ff)
    throw new RangeError(`Cannot read the streams of prefix ${JSON.stringify(prefix)} in order`);
  return `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}`;
}
