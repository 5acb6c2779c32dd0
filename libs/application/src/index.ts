export * from './command-handler.js';
export * from './command-context.js';
export * from './handle-command.js';
export * from './load-stream.js';
export { makeRoom } from './bounded-map.js';
export { FoldedStateCache } from './folded-state-cache.js';
export { SCHEMA_VERSION, UpcastingEventStore } from './upcasting-event-store.js';
export { KEY_CACHE_MS, PersonalKeys } from './privacy/personal-keys-cache.js';
export { SealingEventStore } from './privacy/sealing-event-store.js';
export { servedEventStore } from './served-event-store.js';
export { isSealed, pseudonymOf, seal, unseal } from './privacy/sealing.js';
export {
  currentTraceparent,
  endFailed,
  inSpan,
  spanPlaceFor,
  SpanKind,
  traceContextFrom,
  TRACEPARENT,
  tracingOn,
  tracingStarted,
  tracingStopped,
  type SpanOptions,
} from './tracing.js';
