/**
 * The tracing seam: features and the upstream client start spans through this interface, and nothing here
 * imports OpenTelemetry. With OTEL_EXPORTER_OTLP_ENDPOINT set, `startTracing` loads the SDK (core/otel.ts) on
 * demand; otherwise every span is the no-op below, so tracing that is off costs a function call.
 */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface Span {
  set(attributes: SpanAttributes): void;
  /** Marks the span as failed. */
  fail(message: string): void;
  end(): void;
  /** Runs `fn` with this span active, so spans started inside it (upstream calls) become its children. */
  run<T>(fn: () => T): T;
}

export interface Tracer {
  readonly enabled: boolean;
  start(name: string, kind: 'server' | 'client' | 'internal', attributes?: SpanAttributes): Span;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

const noSpan: Span = { set: () => {}, fail: () => {}, end: () => {}, run: (fn) => fn() };

export const noTracer: Tracer = { enabled: false, start: () => noSpan, shutdown: async () => {} };

export interface TracingSettings {
  /** OTLP/HTTP base URL; traces go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
}

/** The OpenTelemetry tracer when configured, else the no-op one; the SDK is imported only in the first case. */
export async function startTracing(settings: TracingSettings | undefined, serviceVersion: string): Promise<Tracer> {
  if (!settings) return noTracer;
  const { otelTracer } = await import('./otel.js');
  return otelTracer(settings, serviceVersion);
}
