import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as send } from 'undici';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, paymentHeader, paymentRequired } from '../helpers/x402.js';

const ZERO = '0x0000000000000000000000000000000000000000';
const oneQuery = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const nowS = (t: TestApp) => Math.floor(t.clock.now() / 1000);

/** An app whose log lines are collected, to read its start-up warnings. */
async function appWithLog(env: Record<string, string>) {
  const lines: { level: number; msg: string }[] = [];
  const t = await startTestApp({ env, logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  const warnings = () => lines.filter((l) => l.level === 40 && /never settled/.test(l.msg));
  return { t, warnings };
}

describe('two X-Payment headers', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO } });
    // Over a real socket: the header is sent twice on the wire, as a client would (inject may join them).
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it.each([
    ['a bundle', { method: 'POST' as const, url: '/api/data/bundle', payload: oneQuery }, 1000n],
    ['a pass purchase', { method: 'POST' as const, url: '/api/v1/pass/day' }, 990_000n],
    ['a backtest', { method: 'GET' as const, url: `/api/v1/backtest?type=crypto-price&q=BTC&from=1&to=86400` }, 5000n],
  ])('%s is a 400 naming the header, and claims neither authorization', async (_name, request, amount) => {
    const first = await paymentHeader({ nowS: nowS(t), amount });
    const second = await paymentHeader({ nowS: nowS(t), amount });
    const claims = () => t.deps.store.db.selectFrom('payment_authorizations').selectAll().execute();
    const before = (await claims()).length;
    const res = await send(base + request.url, {
      method: request.method,
      headers: [...('payload' in request ? ['content-type', 'application/json'] : []), 'x-payment', first, 'x-payment', second],
      body: 'payload' in request ? JSON.stringify(request.payload) : undefined,
    });
    expect(res.statusCode).toBe(400);
    expect(await res.body.json()).toMatchObject({
      error: 'bad_request',
      message: 'send one payment header (X-Payment), not 2',
      details: { field: 'X-Payment', rule: 'single' },
      request_id: expect.any(String),
    });
    expect(await claims()).toHaveLength(before);
    expect((await t.app.inject({ ...request, headers: { 'x-payment': first } })).statusCode).toBe(200);
  });
});

describe('x402 v2 beside v1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO } });
  });
  afterAll(() => t.close());
  const bundle = (headers: Record<string, string | string[]> = {}, body: object = oneQuery) =>
    t.app.inject({ method: 'POST', url: '/api/data/bundle', payload: body, headers });

  it('every 402 carries the v1 body and a PAYMENT-REQUIRED header with the same price on the CAIP-2 network', async () => {
    const res = await bundle();
    expect(res.statusCode).toBe(402);
    const v1 = res.json().accepts[0];
    const v2 = paymentRequired(res.headers['payment-required']);
    expect(v2).toMatchObject({
      x402Version: 2,
      resource: { url: 'http://svc.test/api/data/bundle', description: 'svc bundle of 1 query', mimeType: 'application/json' },
    });
    expect(v2.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '1000',
        asset: v1.asset,
        payTo: PAY_TO,
        maxTimeoutSeconds: v1.maxTimeoutSeconds,
        extra: v1.extra,
      },
    ]);
    expect(paymentRequired((await bundle()).headers['payment-required'])).toEqual(v2); // deterministic per request
  });

  it('accepts a v2 PAYMENT-SIGNATURE that echoes the requirement; one that alters it is a 402 naming why', async () => {
    const [accepted] = paymentRequired((await bundle()).headers['payment-required']).accepts;
    const paid = await bundle({ 'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n, accepted }) });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payment).toEqual({ method: 'x402', charged: false });
    const altered = await bundle({
      'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n, accepted: { ...accepted, maxTimeoutSeconds: 300 } }),
    });
    expect(altered.statusCode).toBe(402);
    expect(altered.json().reason).toBe('invalid_payment_requirements');
    expect(paymentRequired(altered.headers['payment-required']).error).toBe('invalid_payment_requirements');
    const v1InV2Header = await bundle({ 'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
    expect(v1InV2Header.json().reason).toBe('invalid_x402_version');
  });

  it('one authorization pays once whichever header carries it', async () => {
    const weather = { queries: [{ type: 'weather', q: '3,3' }] };
    const [accepted] = paymentRequired((await bundle({}, weather)).headers['payment-required']).accepts;
    const nonce = `0x${'42'.repeat(32)}` as const;
    expect((await bundle({ 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n, nonce }) })).statusCode).toBe(200);
    const again = await bundle({ 'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n, nonce, accepted }) }, weather);
    expect(again.json().reason).toBe('replayed_authorization');
  });

  it('X-Payment and PAYMENT-SIGNATURE together are a 400 naming both', async () => {
    const res = await bundle({
      'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }),
      'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({ field: 'X-Payment, PAYMENT-SIGNATURE', rule: 'single' });
  });

  it('a PAYMENT-SIGNATURE that is not JSON is a 400 naming that header', async () => {
    const res = await bundle({ 'payment-signature': '%%%' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({ field: 'PAYMENT-SIGNATURE', rule: 'json' });
  });
});

describe('paid tiers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO } });
  });
  afterAll(() => t.close());
  const range = () => ({ type: 'crypto-price', q: 'SOL', from: String(nowS(t) - 30 * 86_400), to: String(nowS(t)) });

  it('tier=paid without a payment is a 402 (v1 body and v2 header); without tier the free tier answers', async () => {
    const challenged = await t.app.inject({ url: '/api/v1/backtest', query: { ...range(), tier: 'paid' } });
    expect(challenged.statusCode).toBe(402);
    expect(challenged.json()).toMatchObject({ x402Version: 1, accepts: [{ maxAmountRequired: '5000' }] });
    expect(paymentRequired(challenged.headers['payment-required']).accepts[0]).toMatchObject({ amount: '5000', network: 'eip155:8453' });
    expect((await t.app.inject({ url: '/api/v1/backtest', query: range() })).json()).toMatchObject({ paid: false, count: 100 });
    const context = await t.app.inject({ url: '/api/v1/agent-context', query: { goal: 'buy BTC', tier: 'paid' } });
    expect(context.statusCode).toBe(402);
    expect(context.json().invoice.amount).toBe('5000');
    expect((await t.app.inject({ url: '/api/v1/agent-context', query: { goal: 'buy BTC', tier: 'free' } })).json().paid).toBe(false);
  });

  it('tier=paid with a payment or a pass gets the paid answer', async () => {
    const query = { ...range(), tier: 'paid' };
    const header = await paymentHeader({ nowS: nowS(t), amount: 5000n });
    expect((await t.app.inject({ url: '/api/v1/backtest', query, headers: { 'x-payment': header } })).json()).toMatchObject({ paid: true });
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pass/day',
      headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 990_000n }) },
    });
    const pass = bought.json().pass;
    expect((await t.app.inject({ url: '/api/v1/backtest', query, headers: { authorization: `Bearer ${pass}` } })).json()).toMatchObject({
      paid: true,
    });
  });

  it('tier=paid with free=1 is a 400 naming tier', async () => {
    const res = await t.app.inject({ url: '/api/v1/backtest', query: { ...range(), tier: 'paid', free: '1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toMatchObject({ field: 'tier', rule: 'conflict' });
  });
});

describe('payments that nothing settles are never reported as charged', () => {
  it('PAYMENT_SETTLE=off: the answer says charged: false and start-up warns once', async () => {
    const { t, warnings } = await appWithLog({ SVC_PAY_TO: PAY_TO, PAYMENT_SETTLE: 'off' });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/data/bundle',
        payload: oneQuery,
        headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) },
      });
      expect(res.json().payment).toEqual({ method: 'x402', charged: false });
      expect(res.headers['x-payment-status']).toBe('unsettled');
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ paymentSettle: 'off', payTo: PAY_TO });
    } finally {
      await t.close();
    }
  });

  it('a zero pay-to address: nothing is sent to the facilitator, not even for a pass; the answers say charged: false; start-up warns', async () => {
    const facilitator = new FakeFacilitator();
    const { t, warnings } = await appWithLog({ SVC_PAY_TO: ZERO, PAYMENT_SETTLE: 'off', X402_FACILITATOR_URL: await facilitator.start() });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/data/bundle',
        payload: oneQuery,
        headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n, to: ZERO }) },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().payment).toEqual({ method: 'x402', charged: false });
      const pass = await t.app.inject({
        method: 'POST',
        url: '/api/v1/pass/day',
        headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 990_000n, to: ZERO }) },
      });
      expect(pass.headers['x-payment-status']).toBe('unsettled');
      expect(facilitator.requests).toEqual([]);
      expect(warnings()).toHaveLength(1);
    } finally {
      await t.close();
      await facilitator.close();
    }
  });

  it('a zero pay-to address with settlement on stops start-up, naming SVC_PAY_TO', () => {
    expect(() => loadConfig({ SVC_PAY_TO: ZERO, PAYMENT_SETTLE: 'sync', X402_FACILITATOR_URL: 'http://127.0.0.1:1' })).toThrow(
      /SVC_PAY_TO: .*zero address/,
    );
  });

  it('a configured recipient and facilitator: charged: true, settled once, and no warning', async () => {
    const facilitator = new FakeFacilitator();
    const { t, warnings } = await appWithLog({
      SVC_PAY_TO: PAY_TO,
      PAYMENT_SETTLE: 'sync',
      X402_FACILITATOR_URL: await facilitator.start(),
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/data/bundle',
        payload: oneQuery,
        headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) },
      });
      expect(res.json().payment).toEqual({ method: 'x402', charged: true });
      expect(facilitator.settled).toHaveLength(1);
      expect(warnings()).toEqual([]);
    } finally {
      await t.close();
      await facilitator.close();
    }
  });
});
