import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { INTERVAL_SECONDS } from '../../src/core/candles.js';
import { intervalsOf, type BacktestType } from '../../src/backtest/providers/index.js';
import { loadFixtures, Simulator } from '../../src/demo/simulator.js';
import { DemoSeries } from '../../src/demo/series.js';
import { registry } from '../../src/sources/registry.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** A demo run long after the fixtures were written: every type and every backtest asset class must still answer. */
const NOW = Date.UTC(2027, 5, 9, 15, 37, 0);
const nowS = Math.floor(NOW / 1000);
let t: TestApp;
let sim: Simulator;
beforeAll(async () => {
  const clock = new ManualClock(NOW);
  sim = await new Simulator(loadFixtures(), { seed: 7, clock }).start();
  t = await startTestApp({ sim, clock, env: { SVC_DEMO: '1' }, deadlineCapMs: 3000 });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const clientOf = (i: number) => `10.1.${Math.floor(i / 200)}.${(i % 200) + 1}`;

describe('SVC_DEMO=1 answers everything, and says it is a demo', () => {
  it.each(registry.all().map((d, i) => [d.type, d.example, i] as const))('%s', async (type, _example, i) => {
    const q = loadFixtures().find((f) => f.type === type)!.q;
    const res = await t.app.inject({ url: '/api/data/preview', query: { type, q }, remoteAddress: clientOf(i) });
    const body = res.json();
    expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: true, source_mode: 'demo' });
    expect(body._receipt.source_mode).toBe('demo');
  });

  it('receipt/verify reports a demo receipt as demo', async () => {
    const body = (await t.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '40.71,-74.01' } })).json();
    const { _receipt, ...response } = body;
    const verified = (
      await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: _receipt, response } })
    ).json();
    expect(verified).toMatchObject({ valid: true, source_mode: 'demo' });
    const forged = { ..._receipt, source_mode: undefined };
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: forged } })).json()).toMatchObject({
      valid: false,
    });
  });

  const cases = (['crypto-price', 'stock-quote', 'forex'] as BacktestType[]).flatMap((type) =>
    intervalsOf(type).map((interval) => [type, type === 'forex' ? 'EUR:USD' : type === 'stock-quote' ? 'AAPL' : 'ETH', interval] as const),
  );
  it.each(cases)('backtests %s %s at %s with candles up to now', async (type, q, interval) => {
    const step = INTERVAL_SECONDS[interval];
    const res = await t.app.inject({
      url: '/api/v1/backtest',
      query: { type, q, interval, from: String(nowS - 200 * step), to: String(nowS), free: '1' },
    });
    const body = res.json();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(body.source_mode).toBe('demo');
    expect(body.count).toBeGreaterThan(interval === '1d' ? 50 : 0);
    expect(body.data.at(-1).t).toBeGreaterThan(nowS - (interval === '1d' ? 4 : 3) * step - 2 * 86_400);
    for (const c of body.data) expect(c.t % step === 0 || interval === '1d').toBe(true);
  });
});

describe('demo series', () => {
  it('is the same for a seed and differs between seeds; candles of different intervals agree', () => {
    const a = new DemoSeries(1);
    expect(new DemoSeries(1).bars('AAPL', 3600, nowS - 86_400, nowS)).toEqual(a.bars('AAPL', 3600, nowS - 86_400, nowS));
    expect(new DemoSeries(2).candle('AAPL', nowS - 3600, 3600)).not.toEqual(a.candle('AAPL', nowS - 3600, 3600));
    const hour = a.candle('AAPL', 1_800_000_000, 3600);
    const quarters = a.bars('AAPL', 900, 1_800_000_000, 1_800_000_000 + 2700);
    expect(quarters[0]!.o).toBe(hour.o);
    expect(quarters.at(-1)!.c).toBe(hour.c);
    for (const c of quarters) expect(c.l <= Math.min(c.o, c.c) && c.h >= Math.max(c.o, c.c)).toBe(true);
  });
});
