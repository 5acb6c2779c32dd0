// Who and what caused a change, as the event store records it for auditors.
import type { EventMetadata } from '#event-store';

export type RequestContext = {
  /** `user:<id>`, `cli`, `system` ... (EventMetadata.actor). */
  actor: string;
  correlationId: string;
  causationId?: string;
  /** The client's address and user agent, for the sign-in history. */
  clientIp?: string;
  userAgent?: string;
  [key: string]: unknown;
};

export function eventMetadata(context: RequestContext): EventMetadata {
  const { actor, correlationId, causationId, ...rest } = context;
  const extra = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  return { ...extra, actor, correlationId, causationId: causationId ?? correlationId };
}
