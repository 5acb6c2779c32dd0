export * from './config.js';
export { eventStoreConnectionStringProblems, parseEventStoreConnectionString } from './eventstore-connection-string.js';
export type { SsoDomainSettings } from './sso-domain-settings.js';
export type { TrustProxy } from './trust-proxy.js';
export type { OtlpProtocol, TracingSettings } from './tracing-settings.js';
