import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { Span, SpanAttributes, Tracer, TracingSettings } from './tracing.js';

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

/**
 * OpenTelemetry behind the tracing seam, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Spans are batched
 * and sent as OTLP/HTTP (JSON) to `<endpoint>/v1/traces`. Nothing is registered globally: this provider and its
 * own AsyncLocalStorage context manager serve this app only (several apps in one process stay apart).
 */
export function otelTracer(settings: TracingSettings, serviceVersion: string): Tracer {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': serviceVersion }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` }))],
  });
  const contexts = new AsyncLocalStorageContextManager().enable();
  const tracer = provider.getTracer('svc', serviceVersion);
  return {
    enabled: true,
    start(name: string, kind: keyof typeof KINDS, attributes: SpanAttributes = {}): Span {
      const parent = contexts.active();
      const span = tracer.startSpan(name, { kind: KINDS[kind], attributes: defined(attributes) }, parent);
      const active = trace.setSpan(parent, span);
      return {
        set: (more) => span.setAttributes(defined(more)),
        fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
        end: () => span.end(),
        run: (fn) => contexts.with(active, fn),
      };
    },
    shutdown: async () => {
      await provider.shutdown();
      contexts.disable();
    },
  };
}

const defined = (attributes: SpanAttributes) =>
  Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined));
