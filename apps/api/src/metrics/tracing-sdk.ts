// The OpenTelemetry SDK, started in one place (main.ts) and only when an OTLP endpoint is set (docs/service.md,
// Tracing). Traces only: no metrics or log exporter, and no auto-instrumentation (nothing is patched in); the spans
// are the explicit ones of the wrappers and helpers (#application's tracing.ts). The exporter, its protocol
// (http/protobuf or http/json), the sampler, the batch delays and the resource are the standard OTEL_* variables,
// read by the SDK.
import { tracingStarted, tracingStopped } from '#application';
import type { TracingSettings } from '#config';

export type Tracing = { shutdown(): Promise<void> };

/** Undefined, and nothing started (nor the SDK even loaded), when tracing is off (no OTLP endpoint set). */
export async function startTracing(settings: TracingSettings): Promise<Tracing | undefined> {
  if (!settings.enabled) return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  tracingStarted();
  let stopped: Promise<void> | undefined;
  return {
    shutdown() {
      stopped ??= (async () => {
        tracingStopped();
        // Flushes the spans still batched.
        await sdk.shutdown();
      })();
      return stopped;
    },
  };
}
