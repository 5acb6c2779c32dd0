// The one way the log is changed in place: sealing the personal data a build before sealing wrote in clear
// (`chorus store:seal-personal-data`, server stopped). Positions, ids, types, revisions and times stay; the stream
// id, data and metadata may change. All or nothing: one transaction, so a crash leaves the log as it was.
import type { RecordedEvent } from './event-store.port.js';

export type EventRewrite = { streamId: string; data: unknown; metadata: Record<string, unknown> };

/** `rechainedFrom`: the first position whose hash was given again, the chain covering the new bytes from there on. */
export type LogRewriteResult = { examined: number; rewritten: number; rechainedFrom?: bigint };

export interface LogRewriter {
  /**
   * Offers every event, in log order, to `change`; what it answers replaces the event's stream id, data and metadata.
   * Before the change is kept, `check` sees every rewritten event as stored: a throw leaves the log untouched.
   * Afterwards no copy of what was replaced stays in the store's files or tables.
   */
  rewrite(
    change: (event: RecordedEvent) => Promise<EventRewrite | undefined>,
    check: (rewritten: RecordedEvent, original: RecordedEvent) => Promise<void>,
  ): Promise<LogRewriteResult>;
  close(): Promise<void>;
}
