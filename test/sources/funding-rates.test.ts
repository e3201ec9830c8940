import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { average8h, fundingRow } from '../../src/sources/lib/funding.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const H = 3_600_000;

describe('funding_rate_8h_avg', () => {
  it('weights each rate by the hours of the last 8 it covers: open interval at the current rate, the rest at the settled one', () => {
    // Settled 0.0001 at t=0 for the interval before it; 3 hours into the next interval, which accrues at 0.0004.
    const settled = [
      { rate: 0.0001, at: 0 },
      { rate: 0.0002, at: -8 * H },
    ];
    expect(average8h(0.0004, settled, 8, 3 * H)).toBeCloseTo((0.0004 * 3 + 0.0001 * 5) / 8, 12);
  });

  it('on hourly funding averages the last 8 settlements, scaled to 8 hours', () => {
    const settled = Array.from({ length: 10 }, (_, i) => ({ rate: (i + 1) * 1e-5, at: -i * H }));
    expect(average8h(0.5, settled, 1, 0)).toBeCloseTo((1 + 2 + 3 + 4 + 5 + 6 + 7 + 8) * 1e-5, 12);
  });

  it('is the 8-hour equivalent of a constant rate, and lies between the lowest and highest rate it covers', () => {
    const rate = fc.double({ min: -0.01, max: 0.01, noNaN: true });
    fc.assert(
      fc.property(
        rate,
        fc.array(rate, { minLength: 1, maxLength: 10 }),
        fc.constantFrom(1, 4, 8),
        fc.integer({ min: 0, max: 7 }),
        (current, rates, hours, intoH) => {
          const settled = rates.map((r, i) => ({ rate: r, at: -i * hours * H }));
          const avg = average8h(current, settled, hours, intoH * H);
          const scaled = [current, ...rates].map((r) => (r * 8) / hours);
          expect(avg).toBeGreaterThanOrEqual(Math.min(...scaled) - 1e-12);
          expect(avg).toBeLessThanOrEqual(Math.max(...scaled) + 1e-12);
          const flat = settled.map((s) => ({ ...s, rate: current }));
          expect(average8h(current, flat, hours, intoH * H)).toBeCloseTo((current * 8) / hours, 12);
        },
      ),
    );
  });

  it('rows name USDT as the quote and carry the average, not the last rate', () => {
    const row = fundingRow(
      'BTC',
      'BTCUSDT',
      'USDT',
      0.0004,
      65000,
      5 * H,
      [
        { rate: 0.0001, at: 0 },
        { rate: 0.0002, at: -8 * H },
      ],
      3 * H,
    );
    expect(row).toMatchObject({ quote: 'USDT', funding_rate: 0.0004, funding_rate_8h_avg: 0.0002125, interval_hours: 8 });
  });
});

describe('funding-rates from a US-hosted server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
  });

  // What each answers from a restricted region: Binance's documented 451, Bybit's CloudFront geo-restriction page.
  const binance451 = {
    kind: 'status',
    status: 451,
    body: '{"code":0,"msg":"Service unavailable from a restricted location according to \'b. Eligibility\' in https://www.binance.com/en/terms."}',
  } as const;
  const cloudFront403 = {
    kind: 'status',
    status: 403,
    headers: { 'content-type': 'text/html' },
    body: '<HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The request could not be satisfied.</H2>The Amazon CloudFront distribution is configured to block access from your country.</BODY></HTML>',
  } as const;
  const run = () => t.deps.sources.run('funding-rates', 'BTC', { maxAgeS: 0 });

  it('answers from keyless Hyperliquid, in USDC, when Binance and Bybit refuse the region (regression: no keyless source served the US)', async () => {
    t.sim.fault('binance-futures', binance451);
    t.sim.fault('bybit', cloudFront403);
    const result = await run();
    expect(result).toMatchObject({ ok: true, source: 'hyperliquid' });
    expect(result.ok && result.rows[0]).toMatchObject({ symbol: 'BTC', quote: 'USDC', interval_hours: 1 });
  });

  it('reports the geo-blocks as region_blocked when nothing answers, and a plain 403 as an upstream error', async () => {
    t.sim.fault('binance-futures', binance451);
    t.sim.fault('bybit', cloudFront403);
    t.sim.fault('hyperliquid', { kind: 'status', status: 403 });
    expect(await run()).toMatchObject({
      ok: false,
      error: 'region_blocked',
      attempts: [
        { source: 'binance-futures', error: 'region_blocked' },
        { source: 'bybit', error: 'region_blocked' },
        { source: 'hyperliquid', error: 'upstream_error' },
      ],
    });
  });
});
