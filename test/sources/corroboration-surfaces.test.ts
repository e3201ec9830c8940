import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { PRICES } from '../../src/payments/pricing.js';
import type { CorroborationBlock } from '../helpers/corroboration.js';
import type { Simulator } from '../../src/demo/simulator.js';

/** Every source is waited for (tests sign with all of them): on a loaded machine a 1.5 s cap would list some `late`. */
const SLOW_MACHINE_DEADLINE_MS = 4000;

/**
 * Every surface carries the same `corroboration` block on a row of each corroborated type as the preview: bundles,
 * snapshots, the stream, MCP tool results (structuredContent) and agent-context. Each is compared with the preview of
 * the same q (a query's items are asked together, so the block of one item depends on the items asked with it), and the
 * OpenAPI row schema documents the block with the contract's field names.
 */
interface Surface {
  type: string;
  q: string;
  /** The row field naming the item priced. */
  item: string;
  /** The sources the type asks, in declared order (src/sources/<type>.ts). */
  sources: string[];
  /** The snapshot basket's item of this type (src/snapshot/service.ts); stocks are not in the basket. */
  snapshotKey?: string;
  /** A goal whose plan fetches this type, the q it asks, and whether it is a primary fetch (else paid supporting). */
  agent: { goal: string; q: string; primary: boolean; serve?: (sim: Simulator, nowMs: number) => void };
}

/** The recorded fixtures price EUR in USD; the portfolio plan asks USD:EUR, served here by each source in its format. */
function serveUsdEur(sim: Simulator, nowMs: number): void {
  const asOf = Math.floor(nowMs / 1000);
  sim.serve({
    host: 'frankfurter',
    path: '/v1/latest',
    query: { base: 'USD', symbols: 'EUR' },
    body: { amount: 1, base: 'USD', date: '2026-11-20', rates: { EUR: 0.9221 } },
  });
  sim.serve({
    host: 'open-er-api',
    path: '/v6/latest/USD',
    body: { result: 'success', base_code: 'USD', time_last_update_unix: asOf, rates: { USD: 1, EUR: 0.9216 } },
  });
  const meta = { currency: 'EUR', symbol: 'USDEUR=X', instrumentType: 'CURRENCY', regularMarketPrice: 0.9219, regularMarketTime: asOf };
  const chart = { result: [{ meta, timestamp: [asOf], indicators: { quote: [{ close: [0.9219] }] } }], error: null };
  sim.serve({ host: 'yahoo', path: '/v8/finance/chart/USDEUR%3DX', body: { chart } });
}

const SURFACES: Surface[] = [
  {
    type: 'crypto-price',
    q: 'bitcoin',
    item: 'coin',
    sources: ['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit'],
    snapshotKey: 'crypto',
    agent: { goal: 'Should I buy BTC this week?', q: 'bitcoin', primary: true },
  },
  {
    type: 'stock-quote',
    q: 'AAPL',
    item: 'symbol',
    sources: ['yahoo', 'finnhub', 'stooq'],
    agent: { goal: 'Should I buy AAPL stock?', q: 'AAPL', primary: true },
  },
  {
    type: 'forex',
    q: 'EUR:USD',
    item: 'base',
    sources: ['frankfurter', 'open-er-api', 'yahoo'],
    snapshotKey: 'eur_usd',
    agent: { goal: 'How should I hedge my portfolio?', q: 'USD:EUR', primary: false, serve: serveUsdEur },
  },
  {
    type: 'commodity-metals',
    q: 'gold',
    item: 'metal',
    sources: ['lbma', 'gold-api', 'yahoo'],
    snapshotKey: 'gold',
    agent: { goal: 'How should I hedge my portfolio?', q: 'gold', primary: false },
  },
];

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp({ deadlineCapMs: SLOW_MACHINE_DEADLINE_MS, env: { SVC_PAY_TO: PAY_TO } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

type Row = Record<string, unknown> & { corroboration: CorroborationBlock };

const previewOf = (type: string, q: string) => t.app.inject({ url: '/api/data/preview', query: { type, q, max_age: '0' } });

/** The preview's first row of `q`, fetched afresh: the reference block, agreed by the type's sources. */
async function previewRow(s: Surface, q = s.q): Promise<Row> {
  const row = (await previewOf(s.type, q)).json<{ preview: Row }>().preview;
  expect(row.corroboration.status).toBe('agreed');
  expect(row.corroboration.sources.map((source) => source.source)).toEqual(s.sources);
  return row;
}

/** The row of `rows` pricing the same item as `reference`. */
const sameItem = (s: Surface, rows: Row[], reference: Row) => rows.find((r) => r[s.item] === reference[s.item])!;

/** The first frame of `type` and `q` on the data stream, read off a real socket; `trigger` runs once it is open. */
async function firstStreamedRow(type: string, q: string, trigger: () => Promise<unknown>): Promise<Row> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/data/stream?types=${type}&q=${encodeURIComponent(q)}`, { signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let triggered = false;
  const frames = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before a ${type} frame: ${text}`);
      text += value;
      if (!triggered && text.startsWith(': ok\n\n')) {
        triggered = true;
        void trigger();
      }
      const data = text.split('\n').find((line) => line.startsWith('data: ') && line.includes(`"${type}"`));
      if (data) return JSON.parse(data.slice(6)) as Row;
    }
  })();
  try {
    return await frames;
  } finally {
    controller.abort();
  }
}

/** The MCP query tool's structuredContent for `type` and `q`, over HTTP (JSON or an SSE frame). */
async function mcpQuery(type: string, q: string): Promise<{ preview: Row }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'query', arguments: { type, q } } }),
  });
  const text = await res.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice(6);
  return JSON.parse(json).result.structuredContent;
}

type Step = { type: string; q: string; data: { results: Row[] } };

/** agent-context's fetch of `type` for the surface's goal: paid when it is a supporting fetch (unpaid ones are listed only). */
async function agentStep(s: Surface): Promise<Step> {
  const nowS = Math.floor(t.clock.now() / 1000);
  const headers = s.agent.primary ? {} : { 'x-payment': await paymentHeader({ nowS, amount: PRICES.agentContext }) };
  const res = await t.app.inject({ url: '/api/v1/agent-context', query: { goal: s.agent.goal }, headers });
  const context = res.json<{ context: Record<'primary' | 'supporting', Step[]> }>().context;
  const steps = s.agent.primary ? context.primary : context.supporting;
  return steps.find((step) => step.type === s.type && step.q === s.agent.q)!;
}

describe.each(SURFACES)('the corroboration block of $type on every surface', (s) => {
  it('a bundle result carries the preview’s block', async () => {
    const expected = await previewRow(s);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle',
      payload: { free: true, queries: [{ type: s.type, q: s.q }] },
    });
    const rows = res.json<{ results: { data: { results: Row[] } }[] }>().results[0]!.data.results;
    expect(sameItem(s, rows, expected).corroboration).toEqual(expected.corroboration);
  });

  it.runIf(s.snapshotKey)('the snapshot’s item carries it', async () => {
    await t.app.scheduler.tick();
    const items = (await t.app.inject('/api/v1/snapshot')).json<{ data: { items: { key: string; q: string; rows: Row[] }[] } }>().data
      .items;
    const item = items.find((i) => i.key === s.snapshotKey)!;
    expect(item.rows).not.toHaveLength(0);
    const expected = await previewRow(s, item.q);
    expect(sameItem(s, item.rows, expected).corroboration).toEqual(expected.corroboration);
  });

  it('the stream’s tick carries it', async () => {
    const expected = await previewRow(s);
    const frame = await firstStreamedRow(s.type, s.q, () => previewOf(s.type, s.q));
    expect(frame).toMatchObject({ type: s.type, q: s.q, [s.item]: expected[s.item] });
    expect(frame.corroboration).toEqual(expected.corroboration);
  });

  it('the MCP query tool’s structuredContent carries it', async () => {
    const expected = await previewRow(s);
    expect((await mcpQuery(s.type, s.q)).preview.corroboration).toEqual(expected.corroboration);
  });

  it('agent-context’s fetch of the type carries it', async () => {
    s.agent.serve?.(t.sim, t.clock.now());
    const expected = await previewRow(s, s.agent.q);
    const step = await agentStep(s);
    expect(sameItem(s, step.data.results, expected).corroboration).toEqual(expected.corroboration);
  });
});

describe('the OpenAPI row schemas', () => {
  it('reference the one Corroboration block, documented field by field, on every corroborated type', async () => {
    const spec = (await t.app.inject({ url: '/openapi.json' })).json();
    const schemas = spec.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    for (const s of SURFACES) {
      const rowSchema = Object.values(schemas).find((schema) => schema.properties?.corroboration && schema.properties[s.item]);
      expect(rowSchema?.properties!.corroboration, s.type).toEqual({ $ref: '#/components/schemas/Corroboration' });
    }
    const block = spec.components.schemas.Corroboration;
    expect(block.required).toEqual(['status', 'quorum', 'spread_bps', 'sources']);
    expect(block.properties.status.enum).toEqual(['agreed', 'disputed', 'single_source']);
    expect(Object.keys(block.properties.sources.items.properties)).toEqual([
      'source',
      'value',
      'quote',
      'as_of',
      'used',
      'reason',
      'error',
    ]);
    expect(block.properties.sources.items.properties.reason.enum).toEqual([
      'outlier',
      'stale',
      'quote_mismatch',
      'unavailable',
      'not_listed',
    ]);
  });
});
