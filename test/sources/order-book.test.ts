import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearFaults();
  t.deps.upstream.resetBreakers();
});

const book = async (q: string) => {
  const result = await t.deps.sources.run('order-book', q, { maxAgeS: 0 });
  if (!result.ok) throw new Error(`${result.error}: ${result.message}`);
  return result;
};

describe('order-book quote currency', () => {
  it('labels Coinbase’s answer to a USDT pair with the USD it serves (regression: rows said USDT)', async () => {
    const result = await book('coinbase:BTC-USDT');
    expect(result.source).toBe('coinbase-exchange');
    expect(new Set(result.rows.map((r) => [r.pair, r.quote].join(' ')))).toEqual(new Set(['BTC-USD USD']));
  });

  it('says USD when Coinbase answers a Binance USDT query as the last fallback', async () => {
    t.sim.fault('binance', { kind: 'status', status: 451, body: '{"code":0,"msg":"Service unavailable from a restricted location"}' });
    t.sim.fault('kraken', { kind: 'status', status: 503 });
    const result = await book('binance:BTCUSDT');
    expect(result.source).toBe('coinbase-exchange');
    expect(result.rows.every((r) => r.quote === 'USD' && r.base === 'BTC')).toBe(true);
  });

  it('keeps the asked quote where the exchange serves that very pair', async () => {
    const result = await book('binance:BTCUSDT');
    expect(result.rows.every((r) => r.quote === 'USDT' && r.pair === 'BTCUSDT')).toBe(true);
  });
});
