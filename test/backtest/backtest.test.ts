import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { aggregateCandles, normalizeCandles, type Candle } from '../../src/core/candles.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let nowS: number;
beforeAll(async () => {
  t = await startTestApp();
  nowS = Math.floor(t.clock.now() / 1000);
});
afterAll(() => t.close());

const backtest = (query: Record<string, string | number>) =>
  t.app.inject({ url: '/api/v1/backtest', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });

function expectWellFormed(data: Candle[], to: number) {
  for (const [i, c] of data.entries()) {
    expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
    expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
    expect(c.t).toBeLessThanOrEqual(to);
    if (i > 0) expect(c.t).toBeGreaterThan(data[i - 1]!.t);
  }
}

describe('backtest', () => {
  it('unpaid: the last 100 closed hourly candles of the range, no look-ahead, signed', async () => {
    const res = await backtest({ type: 'crypto-price', q: 'SOL', from: nowS - 10 * 86_400, to: nowS + 86_400 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ type: 'crypto-price', q: 'SOL', interval: '1h', count: 100, paid: false, source: 'binance' });
    expect(body.data.at(-1).t).toBe(nowS - 3600); // the candle opening at now is still forming
    expect(body.data[0].t).toBe(nowS - 100 * 3600);
    expectWellFormed(body.data, nowS);
    expect(body._cursor).toMatch(/^svc-bt-cur:/);
    expect(body._receipt.sources).toEqual(['binance']);
  });

  it('a free answer carries a cursor for its whole range; a cursor continues only the query it was issued for', async () => {
    const query = { type: 'crypto-price', q: 'SOL', from: nowS - 10 * 86_400, to: nowS };
    const first = (await backtest({ ...query, free: 1 })).json();
    const again = await backtest({ ...query, free: 1, cursor: first._cursor });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.data);
    const other = await backtest({ ...query, q: 'ETH', free: 1, cursor: first._cursor });
    expect(other.statusCode).toBe(400);
    expect(other.json().details).toMatchObject({ field: 'cursor', rule: 'same_query', differs: 'q' });
  });

  it('serves daily stock candles (dropping null days) and daily forex fixings', async () => {
    const stock = (await backtest({ type: 'stock-quote', q: 'aapl', interval: '1d', from: 1763300000, to: 1763800000 })).json();
    expect(stock.data).toEqual([
      { t: 1763389800, o: 226.1, h: 228.4, l: 225.8, c: 228.0, v: 41230000 },
      { t: 1763476200, o: 228.0, h: 229.5, l: 227.1, c: 229.2, v: 38900000 },
      { t: 1763649000, o: 229.9, h: 231.0, l: 229.0, c: 230.5, v: 35120000 },
      { t: 1763735400, o: 230.2, h: 232.1, l: 229.8, c: 231.5, v: 40010000 },
    ]);
    const fx = (
      await backtest({
        type: 'forex',
        q: 'eur:usd',
        interval: '1d',
        from: Date.parse('2026-11-15') / 1000,
        to: Date.parse('2026-11-21') / 1000,
      })
    ).json();
    expect(fx.count).toBe(5);
    expect(fx.data[0]).toEqual({ t: Date.parse('2026-11-16') / 1000, o: 1.0812, h: 1.0812, l: 1.0812, c: 1.0812, v: 0 });
  });

  describe('4h stock and forex candles, built from 1h candles', () => {
    const H = 3600;
    // Hourly bars as Yahoo serves a US session (bars open at :30 UTC), with one halted (null) bar.
    const day = () => Math.floor(nowS / 86_400) * 86_400 - 3 * 86_400;
    const bars = (d: number): (Candle | { t: number; o: null; h: null; l: null; c: null; v: null })[] => [
      { t: d + 13.5 * H, o: 10, h: 11, l: 9.5, c: 10.5, v: 100 },
      { t: d + 14.5 * H, o: 10.5, h: 12, l: 10, c: 11.5, v: 200 },
      { t: d + 15.5 * H, o: 11.5, h: 11.8, l: 9, c: 9.2, v: 50 },
      { t: d + 16.5 * H, o: 9.2, h: 9.6, l: 9.1, c: 9.5, v: 10 },
      { t: d + 17.5 * H, o: 9.5, h: 10, l: 9.4, c: 9.9, v: 20 },
      { t: d + 18.5 * H, o: null, h: null, l: null, c: null, v: null },
      { t: d + 37.5 * H, o: 9.9, h: 10.2, l: 9.8, c: 10.1, v: 5 },
    ];
    const serveHourly = (symbol: string) => {
      const list = bars(day());
      const quote = { open: [] as unknown[], high: [] as unknown[], low: [] as unknown[], close: [] as unknown[], volume: [] as unknown[] };
      for (const b of list)
        [quote.open, quote.high, quote.low, quote.close, quote.volume].forEach((a, i) => a.push([b.o, b.h, b.l, b.c, b.v][i]));
      t.sim.serve({
        host: 'yahoo',
        path: `/v8/finance/chart/${encodeURIComponent(symbol)}`,
        query: { interval: '1h' },
        body: { chart: { result: [{ meta: { symbol }, timestamp: list.map((b) => b.t), indicators: { quote: [quote] } }], error: null } },
      });
    };
    afterAll(() => t.sim.clearOverrides());

    it.each([
      ['stock-quote', 'MSFT', 'MSFT'],
      ['forex', 'EUR:USD', 'EURUSD=X'],
    ])('%s: hand-computed 4h candles in UTC buckets, saying the source served 1h', async (type, q, symbol) => {
      serveHourly(symbol);
      const d = day();
      const res = await backtest({ type, q, interval: '4h', from: d, to: d + 2 * 86_400 });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ type, interval: '4h', source: 'yahoo', source_interval: '1h', count: 3 });
      expect(body.aggregation).toMatch(/from the source's 1h candles in UTC buckets.*open of the first, close of the last/);
      expect(body.data).toEqual([
        { t: d + 12 * H, o: 10, h: 12, l: 9, c: 9.2, v: 350 },
        { t: d + 16 * H, o: 9.2, h: 10, l: 9.1, c: 9.9, v: 30 },
        { t: d + 36 * H, o: 9.9, h: 10.2, l: 9.8, c: 10.1, v: 5 },
      ]);
      // A range starting inside a bucket leaves that bucket out (every candle opens at or after `from`).
      const late = (await backtest({ type, q, interval: '4h', from: d + 13 * H, to: d + 2 * 86_400 })).json();
      expect(late.data.map((c: Candle) => c.t)).toEqual([d + 16 * H, d + 36 * H]);
    });

    it('a native interval says so and carries no aggregation note', async () => {
      const body = (await backtest({ type: 'crypto-price', q: 'SOL', interval: '1h', from: nowS - 86_400, to: nowS })).json();
      expect(body.source_interval).toBe('1h');
      expect(body).not.toHaveProperty('aggregation');
    });
  });

  it('aggregateCandles: UTC-aligned buckets holding the first open, last close, max high, min low, summed volume — for any input', () => {
    const hourly = fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }).chain((hours) =>
      fc.tuple(
        ...hours
          .sort((a, b) => a - b)
          .map((hour) =>
            fc
              .record({
                a: fc.double({ min: 1, max: 100, noNaN: true }),
                b: fc.double({ min: 1, max: 100, noNaN: true }),
                up: fc.double({ min: 0, max: 5, noNaN: true }),
                down: fc.double({ min: 0, max: 0.9, noNaN: true }),
                v: fc.integer({ min: 0, max: 1e6 }),
              })
              .map(({ a, b, up, down, v }) => ({ t: hour * 3600, o: a, c: b, h: Math.max(a, b) + up, l: Math.min(a, b) - down, v })),
          ),
      ),
    );
    fc.assert(
      fc.property(hourly, (candles) => {
        const out = aggregateCandles(candles, 14_400);
        const buckets = new Set(candles.map((c) => Math.floor(c.t / 14_400)));
        expect(out.length).toBe(buckets.size);
        expectWellFormed(out, Infinity);
        for (const bucket of out) {
          expect(bucket.t % 14_400).toBe(0);
          const inside = candles.filter((c) => c.t >= bucket.t && c.t < bucket.t + 14_400);
          expect(bucket.o).toBe(inside[0]!.o);
          expect(bucket.c).toBe(inside.at(-1)!.c);
          expect(bucket.h).toBe(Math.max(...inside.map((c) => c.h)));
          expect(bucket.l).toBe(Math.min(...inside.map((c) => c.l)));
          expect(bucket.v).toBe(inside.reduce((sum, c) => sum + c.v, 0));
        }
      }),
    );
  });

  it('refuses bad ranges, intervals the source cannot serve and malformed q', async () => {
    const reversed = await backtest({ type: 'crypto-price', q: 'SOL', from: nowS, to: nowS - 10 });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().details).toMatchObject({ field: 'from' });
    const tooOld = await backtest({
      type: 'stock-quote',
      q: 'AAPL',
      interval: '1m',
      from: nowS - 40 * 86_400,
      to: nowS - 39 * 86_400,
      free: 1,
    });
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json().details).toMatchObject({ field: 'from', rule: 'lookback', interval: '1m', earliest: nowS - 30 * 86_400 });
    const fxOld = await backtest({
      type: 'forex',
      q: 'EUR:USD',
      interval: '5m',
      from: nowS - 61 * 86_400,
      to: nowS - 60.5 * 86_400,
      free: 1,
    });
    expect(fxOld.json().details).toMatchObject({ rule: 'lookback', interval: '5m' });
    expect((await backtest({ type: 'forex', q: 'EURUS', from: 1, to: 2, interval: '1d' })).json()).toMatchObject({
      error: 'invalid_q',
      details: { example: 'EUR:USD' },
    });
    expect((await backtest({ type: 'weather', q: '1,2', from: 1, to: 2 })).json().details).toMatchObject({ field: 'type', rule: 'enum' });
    expect((await backtest({ type: 'crypto-price', from: 1, to: 2 })).json().details).toMatchObject({ field: 'q', rule: 'required' });
    expect((await backtest({ type: 'crypto-price', q: 'SOL', from: 1, to: 2, cursor: 'svc-bt-cur:forged.sig' })).json().error).toBe(
      'invalid_cursor',
    );
  });

  it('a failing upstream is a 503 with the reason, not a 500', async () => {
    t.sim.fault('binance', { kind: 'status', status: 500 });
    const res = await backtest({ type: 'crypto-price', q: 'SOL', from: nowS - 86_400, to: nowS });
    t.sim.clearFaults();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'upstream_unavailable', details: { reason: 'upstream_error', source: 'binance' } });
  });

  it('normalizeCandles: sorted, unique, inside the range, closed, consistent — for any input', () => {
    const candle = fc.record({
      t: fc.integer({ min: 0, max: 200 }).map((n) => n * 60),
      o: fc.double({ min: 1, max: 100, noNaN: true }),
      h: fc.double({ min: 1, max: 100, noNaN: true }),
      l: fc.double({ min: 1, max: 100, noNaN: true }),
      c: fc.double({ min: 1, max: 100, noNaN: true }),
      v: fc.double({ min: 0, max: 1e6, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(candle, { maxLength: 80 }),
        fc.integer({ min: 0, max: 6000 }),
        fc.integer({ min: 0, max: 12_000 }),
        (candles, from, span) => {
          const to = from + span;
          const nowS = 9000;
          const out = normalizeCandles(candles, { from, to, nowS, intervalS: 60 });
          expectWellFormed(out, Math.min(to, nowS - 60));
          for (const c of out) expect(c.t).toBeGreaterThanOrEqual(from);
        },
      ),
    );
  });
});
