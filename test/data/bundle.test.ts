import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SVC_PAY_TO: '0x1111111111111111111111111111111111111111' } });
});
afterAll(() => t.close());
beforeEach(() => t.sim.clearFaults());

const bundle = (payload: Record<string, unknown>, query: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/data/bundle', query, payload });
const q = (type: string, qq: string) => ({ type, q: qq });

describe('bundle', () => {
  it('runs free queries in parallel, one row each, with crypto-price data holding count and results[]', async () => {
    const res = await bundle({ queries: [q('crypto-price', 'bitcoin,ethereum'), q('weather', '40.71,-74.01'), q('economic-indicator', 'DGS10')] }, { free: '1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 3, free: true, queries: [q('crypto-price', 'bitcoin,ethereum'), q('weather', '40.71,-74.01'), q('economic-indicator', 'DGS10')] });
    expect(body.results[0]).toMatchObject({ type: 'crypto-price', ok: true, data: { count: 1, results: [{ coin: 'bitcoin', usd: 67188.12 }], source: 'coingecko' } });
    expect(body.results[1]).toMatchObject({ type: 'weather', ok: true, data: { count: 1, results: [{ temp_c: 12.3 }] } });
    expect(body._receipt.sources).toEqual(['coingecko', 'fred', 'open-meteo']);
  });

  it('reports a failed query inside the bundle without failing the others, with data holding the failure', async () => {
    t.sim.fault('open-meteo', { kind: 'status', status: 500 });
    t.sim.fault('met-no', { kind: 'status', status: 500 });
    const body = (await bundle({ free: true, queries: [q('weather', '1,1'), q('crypto-price', 'bitcoin')] })).json();
    const message = expect.any(String);
    expect(body.results[0]).toEqual({
      type: 'weather',
      q: '1,1',
      ok: false,
      error: 'upstream_error',
      message,
      data: {
        error: 'upstream_error',
        message,
        attempts: [
          { source: 'open-meteo', error: 'upstream_error' },
          { source: 'met-no', error: 'upstream_error' },
        ],
      },
    });
    expect(body.results[0].data.message).toBe(body.results[0].message);
    expect(body.results[1].ok).toBe(true);
  });

  it('documents data as a required object of every result', async () => {
    const spec = (await t.app.inject({ url: '/openapi.json' })).json();
    const deref = (schema: { $ref?: string }) => (schema.$ref ? spec.components.schemas[schema.$ref.split('/').pop()!] : schema);
    const body = deref(spec.paths['/api/data/bundle'].post.responses['200'].content['application/json'].schema);
    const result = deref(body.properties.results.items);
    expect(result.required).toEqual(expect.arrayContaining(['type', 'ok', 'data']));
    expect(result.properties.data.type).toBe('object');
  });

  it('enforces 1–20 queries, 5 when free, and validates every query before running any', async () => {
    const none = await bundle({ queries: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().details).toMatchObject({ field: 'queries', rule: 'minItems', limit: 1 });
    const tooMany = await bundle({ queries: Array.from({ length: 21 }, () => q('crypto-price', 'bitcoin')) });
    expect(tooMany.json().details).toMatchObject({ field: 'queries', rule: 'maxItems', limit: 20 });
    const freeTooMany = await bundle({ free: true, queries: Array.from({ length: 6 }, () => q('crypto-price', 'bitcoin')) });
    expect(freeTooMany.statusCode).toBe(400);
    expect(freeTooMany.json()).toMatchObject({ error: 'limit_exceeded', details: { field: 'queries', limit: 5 } });
    const badQ = await bundle({ free: true, queries: [q('crypto-price', 'bitcoin'), q('weather', '95,0')] });
    expect(badQ.statusCode).toBe(400);
    expect(badQ.json()).toMatchObject({ error: 'invalid_q', details: { index: 1, field: 'q' } });
    expect(badQ.json().message).toMatch(/^queries\[1\]: /);
  });

  it('answers an unpaid bundle with a 402 x402 challenge priced by the tier table', async () => {
    for (const [n, amount] of [[1, '1000'], [2, '1000'], [3, '3500'], [5, '3500'], [6, '5000'], [10, '5000'], [11, '8000'], [20, '8000']] as const) {
      const res = await bundle({ queries: Array.from({ length: n }, () => q('crypto-price', 'bitcoin')) });
      expect(res.statusCode).toBe(402);
      const body = res.json();
      expect(body.invoice.amount).toBe(amount);
      expect(body.accepts[0].maxAmountRequired).toBe(amount);
    }
    const res = await bundle({ queries: [q('crypto-price', 'bitcoin')] });
    expect(res.headers['www-authenticate']).toBe('x402');
    const body = res.json();
    expect(body).toMatchObject({
      error: 'payment_required',
      protocol: 'x402',
      invoice: { amount: '1000', asset: 'USDC', chain: 'base', recipient: '0x1111111111111111111111111111111111111111', memo: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      x402Version: 1,
      accepts: [{
        scheme: 'exact', network: 'base', maxAmountRequired: '1000', resource: 'http://svc.test/api/data/bundle', mimeType: 'application/json',
        payTo: '0x1111111111111111111111111111111111111111', maxTimeoutSeconds: 120, asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        extra: { name: 'USD Coin', version: '2', memo: body.invoice.memo },
      }],
    });
    // Issue 24.4: the header holds the challenge with its fields at the top level, as the spec describes it.
    const challenge = JSON.parse(String(res.headers['x-payment-required']));
    expect(challenge).toEqual(body.invoice);
    expect(Object.keys(challenge).sort()).toEqual(['amount', 'asset', 'chain', 'expires', 'memo', 'recipient']);
    expect(new Date(challenge.expires).getTime()).toBe(t.clock.now() - (t.clock.now() % 1000) + 120_000);
  });
});
