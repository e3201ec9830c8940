import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Every source is waited for (tests sign with all of them): on a loaded machine a 1.5 s cap would list some `late`. */
const SLOW_MACHINE_DEADLINE_MS = 4000;
/**
 * Every surface carries the same `corroboration` block on a crypto-price row as the preview: bundles, snapshots, the
 * stream, MCP tool results (structuredContent) and agent-context. Each is compared with the preview of the same q (a
 * query's coins are asked together, so the block of bitcoin depends on the coins asked with it), and the OpenAPI row
 * schema documents the block with the contract's field names.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp({ deadlineCapMs: SLOW_MACHINE_DEADLINE_MS });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

type Row = Record<string, unknown> & { coin: string; corroboration: { status: string; sources: { source: string }[] } };

/** The preview's first row of `q` (bitcoin), fetched afresh: the reference block. */
async function previewRow(q: string): Promise<Row> {
  const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q, max_age: '0' } });
  const row = res.json<{ preview: Row }>().preview;
  expect(row).toMatchObject({ coin: 'bitcoin', corroboration: { status: 'agreed' } });
  expect(row.corroboration.sources.map((s) => s.source)).toEqual(['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit']);
  return row;
}

const bitcoinOf = (rows: Row[]) => rows.find((r) => r.coin === 'bitcoin')!;

/** The first `crypto-price` frame for bitcoin on the data stream, read off a real socket; `trigger` runs once it is open. */
async function firstStreamedPrice(trigger: () => Promise<unknown>): Promise<Row> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/data/stream?types=crypto-price&q=bitcoin`, { signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let triggered = false;
  const frames = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before a crypto-price frame: ${text}`);
      text += value;
      if (!triggered && text.startsWith(': ok\n\n')) {
        triggered = true;
        void trigger();
      }
      const data = text.split('\n').find((line) => line.startsWith('data: ') && line.includes('"crypto-price"'));
      if (data) return JSON.parse(data.slice(6)) as Row;
    }
  })();
  try {
    return await frames;
  } finally {
    controller.abort();
  }
}

describe('the corroboration block on every surface', () => {
  it('a bundle result carries the preview’s block', async () => {
    const expected = await previewRow('bitcoin');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle',
      payload: { free: true, queries: [{ type: 'crypto-price', q: 'bitcoin' }] },
    });
    const rows = res.json<{ results: { data: { results: Row[] } }[] }>().results[0]!.data.results;
    expect(bitcoinOf(rows).corroboration).toEqual(expected.corroboration);
  });

  it('the snapshot’s crypto item carries it', async () => {
    await t.app.scheduler.tick();
    const items = (await t.app.inject('/api/v1/snapshot')).json<{ data: { items: { key: string; q: string; rows: Row[] }[] } }>().data
      .items;
    const crypto = items.find((item) => item.key === 'crypto')!;
    expect(bitcoinOf(crypto.rows).corroboration).toEqual((await previewRow(crypto.q)).corroboration);
  });

  it('the stream’s tick carries it', async () => {
    const expected = await previewRow('bitcoin');
    const frame = await firstStreamedPrice(() =>
      t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin', max_age: '0' } }),
    );
    expect(frame).toMatchObject({ type: 'crypto-price', q: 'bitcoin', coin: 'bitcoin' });
    expect(frame.corroboration).toEqual(expected.corroboration);
  });

  it('the MCP query tool’s structuredContent carries it', async () => {
    const expected = await previewRow('bitcoin');
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'query', arguments: { type: 'crypto-price', q: 'bitcoin' } },
      }),
    });
    const text = await res.text();
    const message = JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6),
    );
    expect(message.result.structuredContent.preview.corroboration).toEqual(expected.corroboration);
  });

  it('agent-context’s price carries it', async () => {
    const expected = await previewRow('bitcoin');
    const res = await t.app.inject({ url: '/api/v1/agent-context', query: { goal: 'Should I buy BTC this week?' } });
    const price = res.json<{ context: { primary: { type: string; data: { results: Row[] } }[] } }>().context.primary[0]!;
    expect(price.type).toBe('crypto-price');
    expect(bitcoinOf(price.data.results).corroboration).toEqual(expected.corroboration);
  });

  it('the OpenAPI crypto-price row documents the block field by field', async () => {
    const spec = (await t.app.inject({ url: '/openapi.json' })).json();
    const schemas = spec.components.schemas;
    const rowSchema = Object.values(schemas as Record<string, { properties?: Record<string, unknown> }>).find(
      (s) => s.properties?.corroboration && s.properties.coin,
    )!;
    expect(rowSchema.properties!.corroboration).toEqual({ $ref: '#/components/schemas/Corroboration' });
    const block = schemas.Corroboration;
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
