import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICES } from '../../src/payments/pricing.js';
import { HOSTS } from '../../src/upstream/hosts.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';

/**
 * Issue 35, item 3: limits an agent sees before it hits them. GET /api/v1/limits answers the caller's standing, a 402
 * names its price and the cheaper alternatives, every 429 and 503 says its limit with Retry-After, and MCP results carry
 * the same numbers in `_meta`.
 */
const facilitator = new FakeFacilitator();
let t: TestApp;
beforeAll(async () => {
  const url = await facilitator.start();
  t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: url, PAYMENT_SETTLE: 'sync', SVC_RATE_ANON_PER_MIN: '50' } });
});
afterAll(async () => {
  await t.close();
  await facilitator.close();
});

const nowS = () => Math.floor(t.clock.now() / 1000);
const limits = (ip: string, headers: Record<string, string> = {}) => t.app.inject({ url: '/api/v1/limits', remoteAddress: ip, headers });
const bundle = (ip: string, headers: Record<string, string>, payload: object = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] }) =>
  t.app.inject({ method: 'POST', url: '/api/data/bundle', remoteAddress: ip, headers, payload });

describe('GET /api/v1/limits', () => {
  it('answers an anonymous caller its tier and what is left, as its own RateLimit fields say', async () => {
    const res = await limits('10.40.0.1');
    expect(res.statusCode).toBe(200);
    expect(res.headers.ratelimit).toBe('"anonymous";r=49;t=2');
    expect(res.json()).toMatchObject({
      tier: 'anonymous',
      identified_by: 'address',
      rate: { policy: 'anonymous', limit: 50, window_s: 60, remaining: 49, reset_s: 2 },
      pass: null,
      spend_today: { amount: '0', usd: '0', asset: 'USDC', paid_calls: 0 },
      as_of: nowS(),
    });
  });

  it("counts a caller's x402 spend since 00:00 UTC once per paid request, retries included; other callers see none", async () => {
    const ip = '10.40.0.2';
    const header = await paymentHeader({ nowS: nowS(), amount: 1000n });
    for (let i = 0; i < 3; i++) expect((await bundle(ip, { 'x-payment': header })).statusCode).toBe(200);
    const three = { queries: ['bitcoin', 'ethereum', 'solana'].map((q) => ({ type: 'crypto-price', q })) };
    expect((await bundle(ip, { 'x-payment': await paymentHeader({ nowS: nowS(), amount: 3500n }) }, three)).statusCode).toBe(200);
    expect((await limits(ip)).json().spend_today).toMatchObject({ amount: '4500', usd: '0.0045', paid_calls: 2 });
    expect((await limits('10.40.0.3')).json().spend_today.amount).toBe('0');
  });

  it('gives a pass holder the pass tier and the pass balance (the time it has left)', async () => {
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pass/day',
      remoteAddress: '10.40.0.4',
      headers: { 'x-payment': await paymentHeader({ nowS: nowS(), amount: PRICES.dayPass }) },
    });
    const pass = bought.json().pass as string;
    t.clock.advance(3_600_000);
    const res = (await limits('10.40.0.5', { authorization: `Bearer ${pass}` })).json();
    expect(res).toMatchObject({ tier: 'pass', identified_by: 'pass', pass: { kind: 'day', remaining_s: 23 * 3600, valid: true } });
    // The purchase was charged to the buyer's address, not to the pass.
    expect((await limits('10.40.0.4')).json().spend_today).toMatchObject({ amount: '990000', usd: '0.99', paid_calls: 1 });
  });
});

describe('402 bodies', () => {
  it('keep the spec fields and add the price, what it buys and the cheaper alternatives', async () => {
    const res = await bundle('10.41.0.1', {});
    expect(res.statusCode).toBe(402);
    const body = res.json();
    expect(body).toMatchObject({
      error: 'payment_required',
      protocol: 'x402',
      invoice: { amount: '1000', asset: 'USDC', chain: 'base', recipient: PAY_TO },
      price: { amount: '1000', usd: '0.001', asset: 'USDC' },
      buys: 'svc bundle of 1 query',
    });
    expect(body.alternatives).toEqual([
      { kind: 'free_tier', price_usd: '0', how: expect.stringContaining('?free=1'), gives: 'at most 5 queries, one row each' },
      expect.objectContaining({ kind: 'pass', pass: 'day', price_usd: '0.99', hours: 24, pays_off_after_calls: 990 }),
      expect.objectContaining({ kind: 'pass', pass: 'week', price_usd: '4.99', hours: 168, buy: 'POST http://svc.test/api/v1/pass/week' }),
    ]);
    const pass = (await t.app.inject({ method: 'POST', url: '/api/v1/pass/week', remoteAddress: '10.41.0.2' })).json();
    expect(pass.alternatives).toEqual([expect.objectContaining({ kind: 'per_call', price_usd: '0.001' })]);
  });
});

describe('429 and 503', () => {
  it('a 503 whose thrower named no wait still carries Retry-After and says its limit in details', async () => {
    for (const host of Object.keys(HOSTS)) t.sim.fault(host, { kind: 'status', status: 500 });
    const res = await t.app.inject({ url: '/api/v1/gainers?type=crypto', remoteAddress: '10.42.0.1' });
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('15');
    expect(res.json().details).toMatchObject({ policy: 'upstream_unavailable', window_s: null, retry_after_s: 15, reset_s: 15 });
  });
});

describe('MCP results', () => {
  const call = (name: string, args: object, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      remoteAddress: ip,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });

  it('carry the RateLimit numbers in _meta, and a 402 its price and alternatives', async () => {
    const free = (await call('query', { type: 'forex', q: 'EUR:USD' }, '10.43.0.1')).json().result;
    expect(free._meta['svc/ratelimit']).toEqual({
      policy: 'anonymous',
      quota: 50,
      window_s: 60,
      remaining: expect.any(Number),
      reset_s: expect.any(Number),
    });
    const paid = (await call('bundle', { queries: [{ type: 'forex', q: 'EUR:USD' }] }, '10.43.0.2')).json().result;
    expect(paid.isError).toBe(true);
    expect(paid._meta['svc/payment-options']).toMatchObject({
      price: { usd: '0.001' },
      alternatives: [{ kind: 'free_tier' }, { kind: 'pass' }, { kind: 'pass' }],
    });
  });
});
