import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, paymentRequired } from '../helpers/x402.js';

/** Issue 28.3: the x402 discovery documents say v2 (CAIP-2, both header sets) and list every paid resource; probing one answers 402. */
describe('/.well-known/x402 and /.well-known/x402.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO, X402_NETWORK: 'base-sepolia' } });
  });
  afterAll(() => t.close());

  it('x402.json: v1 and v2, the configured network by CAIP-2 id, its USDC, and the header names the server really uses', async () => {
    const descriptor = (await t.app.inject('/.well-known/x402.json')).json();
    expect(descriptor).toMatchObject({
      x402Version: 2,
      x402Versions: [1, 2],
      scheme: 'exact',
      networks: ['eip155:84532'],
      network_names: { 'eip155:84532': 'base-sepolia' },
      asset: { symbol: 'USDC', decimals: 6, address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', eip712: { name: 'USDC', version: '2' } },
      pay_to: PAY_TO,
      headers: {
        v1: { payment: 'X-PAYMENT', response: 'X-PAYMENT-RESPONSE' },
        v2: { challenge: 'PAYMENT-REQUIRED', payment: 'PAYMENT-SIGNATURE', response: 'PAYMENT-RESPONSE' },
      },
      extensions: ['bazaar'],
      discovery: 'http://svc.test/.well-known/x402',
    });
    const challenge = await t.app.inject({ method: 'POST', url: '/api/v1/pass/day' });
    expect(challenge.statusCode).toBe(402);
    const v2 = paymentRequired(challenge.headers[descriptor.headers.v2.challenge.toLowerCase()]);
    expect(v2.accepts[0].network).toBe(descriptor.networks[0]);
    expect(challenge.json().accepts[0].network).toBe(descriptor.network_names[descriptor.networks[0]]);
  });

  it('x402: every paid operation of the OpenAPI, GETs with their example query, and probing answers 402 with a bazaar extension', async () => {
    const res = await t.app.inject('/.well-known/x402');
    expect(res.headers['content-type']).toContain('application/json');
    const { version, resources } = res.json();
    expect(version).toBe(1);
    expect(resources.map((r: string) => r.split('?')[0]).sort()).toEqual(
      [
        'http://svc.test/api/data/bundle',
        'http://svc.test/api/v1/agent-context',
        'http://svc.test/api/v1/backtest',
        'http://svc.test/api/v1/calib/record_claim',
        'http://svc.test/api/v1/pass/day',
        'http://svc.test/api/v1/pass/week',
      ].sort(),
    );
    const probe = async (url: string, method: 'GET' | 'POST') => t.app.inject({ method, url: url.replace('http://svc.test', '') });
    for (const url of resources.filter((r: string) => /backtest|agent-context/.test(r))) {
      expect(url).toContain('tier=paid');
      const answer = await probe(url, 'GET');
      expect(answer.statusCode, url).toBe(402);
      expect(paymentRequired(answer.headers['payment-required']).extensions.bazaar.info.input.method).toBe('GET');
    }
    for (const url of resources.filter((r: string) => r.includes('/pass/'))) expect((await probe(url, 'POST')).statusCode, url).toBe(402);
    expect(resources).toContain('http://svc.test/api/v1/calib/record_claim?product=calib-pro');
  });

  it('a bare probe of each listed resource, GET or POST without a body, answers 402 with the POST operation’s requirements', async () => {
    const { resources } = (await t.app.inject('/.well-known/x402')).json() as { resources: string[] };
    // The other resources are GET operations or passes, probed above.
    const posts = resources.map((r) => r.replace('http://svc.test', '')).filter((url) => /bundle|record_claim/.test(url));
    expect(posts).toHaveLength(2);
    for (const url of posts) {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await t.app.inject({ method, url });
        expect(answer.statusCode, `${method} ${url}`).toBe(402);
        expect(answer.json().accepts[0], `${method} ${url}`).toMatchObject({ network: 'base-sepolia', payTo: PAY_TO });
        const bazaar = paymentRequired(answer.headers['payment-required']).extensions.bazaar;
        expect(bazaar.info.input, `${method} ${url}`).toMatchObject({ type: 'http', method: 'POST' });
      }
    }
    const bundleProbe = await t.app.inject({ method: 'GET', url: '/api/data/bundle' });
    expect(bundleProbe.json().accepts[0]).toMatchObject({ maxAmountRequired: '1000', resource: 'http://svc.test/api/data/bundle' });
  });

  it('validation is untouched: a body, a payment or a free or unpaid call without one still gets its 400 or 405', async () => {
    const bodyOf = async (
      method: 'GET' | 'POST',
      url: string,
      extra: { payload?: Record<string, unknown>; headers?: Record<string, string> } = {},
    ) => (await t.app.inject({ method, url, ...extra })).json();
    const invalid = { error: 'validation_failed' };
    expect(await bodyOf('POST', '/api/data/bundle', { payload: { queries: [] } })).toMatchObject(invalid);
    expect(await bodyOf('POST', '/api/data/bundle', { headers: { 'x-payment': 'e30=' } })).toMatchObject(invalid);
    expect(await bodyOf('POST', '/api/data/bundle?free=1')).toMatchObject(invalid);
    expect(await bodyOf('POST', '/api/v1/calib/record_claim')).toMatchObject(invalid);
    const get = await t.app.inject({ method: 'GET', url: '/api/v1/calib/record_claim' });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });
});
