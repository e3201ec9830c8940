import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDiscoveryInfo, extractDiscoveryInfoV1, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, paymentHeader, paymentRequired } from '../helpers/x402.js';

/** Issue 28.3: every v2 402 lists the operation for x402 Bazaar facilitators; every v1 `accepts[]` carries `outputSchema`. */
const nowS = (t: TestApp) => Math.floor(t.clock.now() / 1000);

describe('Bazaar discovery in every 402', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO } });
  });
  afterAll(() => t.close());

  const paidCalls = () => [
    { method: 'POST' as const, url: '/api/data/bundle', payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] } },
    { method: 'GET' as const, url: `/api/v1/backtest?type=crypto-price&q=SOL&from=${nowS(t) - 86_400}&to=${nowS(t)}&tier=paid` },
    { method: 'GET' as const, url: '/api/v1/agent-context?goal=buy%20BTC&tier=paid' },
    {
      method: 'POST' as const,
      url: '/api/v1/calib/record_claim?product=calib-pro',
      payload: {
        agent_id: 'test:bazaar',
        kind: 'k',
        predicted_p: 0.5,
        payload: {},
        outcome_resolver: { type: 'manual', config: {} },
        ttl_hours: 1,
      },
    },
    { method: 'POST' as const, url: '/api/v1/pass/day' },
    { method: 'POST' as const, url: '/api/v1/pass/week' },
  ];

  it.each([0, 1, 2, 3, 4, 5])(
    'paid operation %i: a bazaar extension the x402 validator accepts, describing a call that is paid',
    async (i) => {
      const call = paidCalls()[i]!;
      const res = await t.app.inject(call);
      expect(res.statusCode, call.url).toBe(402);
      const header = String(res.headers['payment-required']);
      const required = paymentRequired(header);
      const bazaar = required.extensions.bazaar;
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(bazaar.info.input).toMatchObject({ type: 'http', method: call.method });
      expect(bazaar.info.output).toMatchObject({ type: 'json', example: expect.any(Object) });

      // A client echoes the extension in its payment; the facilitator's extractor finds the resource in it.
      const [accepted] = required.accepts;
      const payload = { x402Version: 2, resource: required.resource, accepted, payload: {}, extensions: required.extensions };
      expect(extractDiscoveryInfo(payload as never, accepted)).toMatchObject({
        resourceUrl: `http://svc.test${call.url.split('?')[0]}`,
        method: call.method,
        x402Version: 2,
      });
      // v1: the same description in accepts[0].outputSchema.
      const [v1] = res.json().accepts;
      expect(v1.outputSchema.input).toMatchObject({ type: 'http', method: call.method, discoverable: true });
      expect(extractDiscoveryInfoV1(v1)).toMatchObject({ input: { type: 'http', method: call.method } });

      // The call it describes is a paid call: made as described, it is answered with a 402 at the same price.
      const { queryParams, body } = bazaar.info.input;
      const described = await t.app.inject({
        method: call.method,
        url: call.url.split('?')[0],
        query: queryParams,
        ...(body ? { payload: body } : {}),
      });
      expect(described.statusCode, JSON.stringify(described.json())).toBe(402);
      expect(paymentRequired(described.headers['payment-required']).accepts[0].amount).toBe(accepted.amount);
    },
  );

  it.each([0, 2])('paid operation %i: a v2 payment echoing resource and extensions, as @x402/core builds it, is accepted', async (i) => {
    const call = paidCalls()[i]!;
    const required = paymentRequired((await t.app.inject(call)).headers['payment-required']);
    const [accepted] = required.accepts;
    const signed = JSON.parse(
      Buffer.from(await paymentHeader({ nowS: nowS(t), amount: BigInt(accepted.amount), accepted }), 'base64').toString(),
    );
    const echoed = Buffer.from(JSON.stringify({ ...signed, resource: required.resource, extensions: required.extensions })).toString(
      'base64',
    );
    const paid = await t.app.inject({ ...call, headers: { 'payment-signature': echoed } });
    expect(paid.statusCode, paid.body).toBe(200);
  });
});
