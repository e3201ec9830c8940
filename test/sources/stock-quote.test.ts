import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stockTicker } from '../../src/sources/lib/q.js';
import { fromFinnhub } from '../../src/sources/stock-quote.js';
import { stooqSymbol, zonedUnixSeconds } from '../../src/sources/lib/stooq.js';
import { parseStooqQuote } from '../../src/upstream/formats/stooq-quote.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const HEADER = 'Symbol,Date,Time,Open,High,Low,Close,Volume\r\n';
const quote = { c: 227.48, d: 3.25, dp: 1.4494, h: 228.9, l: 224.3, o: 225, pc: 224.23, t: 1731704401 };

describe('stock-quote q', () => {
  it('accepts index tickers with their caret, as the parser promises (regression: ^GSPC was a 400)', () => {
    expect(['^GSPC', '^dji', 'BRK-B', 'VOD.L', 'GC=F'].map(stockTicker)).toEqual(['^GSPC', '^DJI', 'BRK-B', 'VOD.L', 'GC=F']);
    for (const bad of ['', '^', '^^GSPC', 'AA^PL', 'AAPL MSFT']) expect(() => stockTicker(bad), bad).toThrow(/ticker/);
  });
});

describe('stock-quote Finnhub', () => {
  it('takes the currency and exchange from Finnhub’s profile of the symbol (regression: USD was a constant)', () => {
    const [row] = fromFinnhub('SHOP.TO', quote, { currency: 'CAD', exchange: 'TORONTO STOCK EXCHANGE' });
    expect(row).toMatchObject({ currency: 'CAD', exchange: 'TORONTO STOCK EXCHANGE', price: 227.48 });
    expect(fromFinnhub('SPY', quote, {})[0]).toMatchObject({ currency: null, exchange: null });
  });
});

describe('stock-quote Stooq', () => {
  it('maps US tickers and indices to Stooq symbols and leaves other markets out', () => {
    expect(['AAPL', 'BRK-B', '^GSPC', '^IXIC', '^DJI', 'VOD.L', 'GC=F'].map(stooqSymbol)).toEqual([
      'aapl.us',
      'brk-b.us',
      '^spx',
      '^ndq',
      '^dji',
      null,
      null,
    ]);
  });

  it('reads the quote line, an unknown symbol as none, and tells a challenge page or the daily limit from a quote', () => {
    expect(parseStooqQuote(`${HEADER}^SPX,2026-11-20,22:03:05,5911.2,5950.1,5902.3,5948.71,N/D\r\n`)).toMatchObject({
      close: 5948.71,
      volume: null,
    });
    expect(parseStooqQuote(`${HEADER}XYZ.US,N/D,N/D,N/D,N/D,N/D,N/D,N/D\r\n`)).toBeNull();
    expect(() => parseStooqQuote('<!DOCTYPE html><html><body><script>/* proof of work */</script></body></html>')).toThrow(
      expect.objectContaining({ reason: 'upstream_bad_response' }),
    );
    expect(() => parseStooqQuote('Exceeded the daily hits limit')).toThrow(expect.objectContaining({ reason: 'upstream_rate_limited' }));
  });

  it('reads Stooq’s Warsaw wall-clock time in winter and in summer', () => {
    expect(zonedUnixSeconds('2024-11-15', '22:00:01', 'Europe/Warsaw')).toBe(Date.UTC(2024, 10, 15, 21, 0, 1) / 1000);
    expect(zonedUnixSeconds('2026-07-17', '22:00:05', 'Europe/Warsaw')).toBe(Date.UTC(2026, 6, 17, 20, 0, 5) / 1000);
  });
});

describe('stock-quote without Yahoo or a Finnhub key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { UPSTREAM_FINNHUB_KEY: '' } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.sim.clearOverrides();
    t.deps.upstream.resetBreakers();
    t.sim.fault('yahoo', { kind: 'status', status: 429 });
  });

  it('answers from Stooq, the second keyless source (regression: Yahoo refusing meant no quote)', async () => {
    const result = await t.deps.sources.run('stock-quote', 'AAPL', { maxAgeS: 0 });
    expect(result).toMatchObject({ ok: true, source: 'stooq' });
    expect(result.ok && result.rows[0]).toMatchObject({ symbol: 'AAPL', currency: 'USD', price: 227.48, as_of: 1731704401 });
  });

  it('quotes the S&P 500 as ^GSPC, in points without a currency', async () => {
    t.sim.serve({
      host: 'stooq',
      path: '/q/l/',
      query: { s: '^spx' },
      body: `${HEADER}^SPX,2026-11-20,22:03:05,5911.2,5950.1,5902.3,5948.71,N/D\r\n`,
    });
    const result = await t.deps.sources.run('stock-quote', '^GSPC', { maxAgeS: 0 });
    expect(result.ok && result.rows[0]).toMatchObject({ symbol: '^GSPC', price: 5948.71, currency: null, source: 'stooq' });
  });
});
