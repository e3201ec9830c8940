import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { noTracer } from '../../src/core/tracing.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** A loopback OTLP/HTTP collector: keeps every JSON export POSTed to /v1/traces. */
async function startCollector(): Promise<{ server: Server; url: string; exports: OtlpExport[] }> {
  const exports: OtlpExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) {
        exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && (value.stringValue ?? value.intValue);
};

describe('OpenTelemetry tracing', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeAll(async () => {
    collector = await startCollector();
  });
  afterAll(() => new Promise<void>((resolve) => collector.server.close(() => resolve())));

  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT: the no-op tracer, nothing exported', async () => {
    const t = await startTestApp();
    expect(t.deps.tracer).toBe(noTracer);
    await t.app.inject({ url: '/api/data/preview?type=weather&q=40.71,-74.01&max_age=0' });
    await t.close();
    expect(collector.exports).toEqual([]);
  });

  it('exports each request as a server span with its upstream calls as child client spans', async () => {
    const t: TestApp = await startTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'svc-test' } });
    t.sim.fault('coingecko', { kind: 'status', status: 503 });
    const res = await t.app.inject({ url: '/api/data/preview?type=crypto-price&q=bitcoin&max_age=0' });
    expect(res.statusCode).toBe(200);
    await t.close(); // shutting down flushes the batch

    const resource = collector.exports[0]!.resourceSpans[0]!.resource.attributes;
    expect(resource).toContainEqual({ key: 'service.name', value: { stringValue: 'svc-test' } });
    const spans = collector.exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const server = spans.find((s) => s.name === 'GET /api/data/preview')!;
    expect(server.kind).toBe(2); // SERVER
    expect(attribute(server, 'http.route')).toBe('/api/data/preview');
    expect(Number(attribute(server, 'http.response.status_code'))).toBe(200);
    const children = spans.filter((s) => s.parentSpanId === server.spanId);
    // crypto-price asks its six sources at once (docs/corroboration.md): one client span each.
    const sources = ['binance', 'bybit', 'coinbase-exchange', 'coingecko', 'kraken', 'okx'];
    expect(children.map((s) => s.name).sort()).toEqual(sources.map((source) => `GET ${source}`));
    for (const child of children) {
      expect(child.traceId).toBe(server.traceId);
      expect(child.kind).toBe(3); // CLIENT
    }
    const coingecko = children.find((s) => s.name === 'GET coingecko')!;
    expect(attribute(coingecko, 'svc.upstream')).toBe('coingecko');
    expect(attribute(coingecko, 'svc.upstream.outcome')).toBe('error');
    expect(Number(attribute(coingecko, 'http.response.status_code'))).toBe(503);
    expect(JSON.stringify(spans)).not.toContain('sim-key');
  });
});
