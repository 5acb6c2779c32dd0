// Tracing (docs/service.md, Tracing) is on when an OTLP endpoint is set, off otherwise. The OpenTelemetry SDK
// reads the standard OTEL_* variables itself; these are the ones Chorus decides on or checks at start-up.
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

export type OtlpProtocol = (typeof PROTOCOLS)[number];

export type TracingSettings = {
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set, and neither OTEL_SDK_DISABLED nor
   * OTEL_TRACES_EXPORTER=none.
   */
  enabled: boolean;
  protocol: OtlpProtocol;
  /**
   * `chorus` unless OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) names it: then undefined, the
   * SDK's.
   */
  serviceName: string | undefined;
};

const text = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

export function parseTracingSettings(env: Record<string, string | undefined>, problems: string[]): TracingSettings {
  const endpoints = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const;
  for (const name of endpoints) {
    const value = text(env[name]);
    if (value !== undefined && !/^https?:\/\/[^/]/.test(value))
      problems.push(`${name}: must be an http:// or https:// URL (OTLP over HTTP)`);
  }
  let protocol: OtlpProtocol = 'http/protobuf';
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] as const) {
    const value = text(env[name]);
    if (value === undefined) continue;
    if (PROTOCOLS.includes(value as OtlpProtocol)) protocol = value as OtlpProtocol;
    else problems.push(`${name}: must be one of ${PROTOCOLS.join(', ')}`);
  }
  const disabled =
    text(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true' || text(env.OTEL_TRACES_EXPORTER)?.toLowerCase() === 'none';
  const named =
    text(env.OTEL_SERVICE_NAME) !== undefined || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  return {
    enabled: !disabled && endpoints.some((name) => text(env[name]) !== undefined),
    protocol,
    serviceName: named ? undefined : 'chorus',
  };
}
