import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVAL_SECONDS } from '../../src/core/candles.js';
import { BACKTEST_TYPES, intervalsOf } from '../../src/backtest/providers/index.js';
import { registry } from '../../src/sources/registry.js';
import type { TestApp } from '../helpers/app.js';
import { clientOf, startDemoApp } from './helpers.js';

/**
 * The demo world on the days markets are closed or clocks jump: on each, every catalog example answers and every
 * backtest type × interval over the last five days has candles. The clock is injected, so the day CI runs on does not
 * matter; one app per date, its requests in parallel.
 */
const DAY = 86_400;
/** When, and the US market's state then (pre-market 04:00, session 09:30–16:00, after-hours to 20:00, New York). */
const AT: [label: string, iso: string, usMarket: string][] = [
  ['a Saturday', '2027-03-13T15:00:00Z', 'closed'],
  ['Thanksgiving (a US market holiday), in session hours', '2026-11-26T18:00:00Z', 'closed'],
  ['the Saturday after Thanksgiving', '2026-11-28T12:00:00Z', 'closed'],
  ['the start of daylight saving (New York)', '2027-03-14T07:00:00Z', 'closed'],
  ['the first session under daylight saving, 09:45 New York', '2027-03-15T13:45:00Z', 'open'],
  ['the end of daylight saving (New York)', '2027-11-07T06:00:00Z', 'closed'],
  ['a month end, 19:30 New York', '2027-04-30T23:30:00Z', 'post'],
  ['a year end, 18:30 New York', '2026-12-31T23:30:00Z', 'post'],
];
/** Requests in parallel, a few at a time: all at once, a cold app on two shared cores meets the 4 s deadline cap. */
async function inBatches<T, R>(items: T[], run: (item: T) => Promise<R>, size = 6): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

const SAMPLE_Q: Record<string, string> = { 'crypto-price': 'bitcoin', 'stock-quote': 'AAPL', forex: 'EUR:USD' };

describe.each(AT)('the demo world on %s (%s)', (_label, iso, usMarket) => {
  const nowS = Date.parse(iso) / 1000;
  let t: TestApp;
  let asked = 0;
  beforeAll(async () => {
    t = await startDemoApp(nowS * 1000);
  }, 30_000);
  afterAll(() => t.close());
  const get = async (url: string, query: Record<string, string>) => {
    const res = await t.app.inject({ url, query, remoteAddress: clientOf(asked++) });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers every catalog example', async () => {
    const answers = await inBatches(registry.all(), async (d) => ({
      type: d.type,
      ...(await get('/api/data/preview', { type: d.type, q: d.example })),
    }));
    const failed = answers.filter((a) => a.body.ok !== true).map((a) => `${a.type}: ${JSON.stringify(a.body).slice(0, 200)}`);
    expect(failed).toEqual([]);
  });

  it(`says the US market is ${usMarket} on stock rows and backtests`, async () => {
    expect((await get('/api/data/preview', { type: 'stock-quote', q: 'AAPL' })).body.preview.market_state).toBe(usMarket);
    const range = { from: String(nowS - 5 * DAY), to: String(nowS), free: '1' };
    expect((await get('/api/v1/backtest', { type: 'stock-quote', q: 'AAPL', ...range })).body.market_state).toBe(usMarket);
  });

  it('has candles for every backtest type × interval over the last five days', async () => {
    const cases = BACKTEST_TYPES.flatMap((type) => intervalsOf(type).map((interval) => ({ type, interval })));
    const answers = await inBatches(cases, async ({ type, interval }) => {
      const query = { type, q: SAMPLE_Q[type]!, interval, from: String(nowS - 5 * DAY), to: String(nowS), free: '1' };
      return { type, interval, ...(await get('/api/v1/backtest', query)) };
    });
    const empty = answers
      .filter((a) => a.status !== 200 || !(a.body.count > 0))
      .map((a) => `${a.type} ${a.interval}: ${JSON.stringify(a.body).slice(0, 200)}`);
    expect(empty).toEqual([]);
    for (const { body, interval } of answers) {
      expect(body.data.at(-1).t + INTERVAL_SECONDS[interval]).toBeLessThanOrEqual(nowS);
    }
  });
});
