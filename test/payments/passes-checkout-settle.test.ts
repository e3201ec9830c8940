import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS, uniqueName } from '../helpers/backends.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { SUPPORTS_BASE } from '../helpers/facilitator.js';

/** A loopback stand-in for Stripe's GET /v1/checkout/sessions/:id and an x402 facilitator's POST /settle. */
function fakeServices() {
  const sessions: Record<string, object> = {
    cs_test_paidday: {
      id: 'cs_test_paidday',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      livemode: false,
      amount_total: 99,
      currency: 'usd',
      mode: 'payment',
    },
    cs_test_unpaid: {
      id: 'cs_test_unpaid',
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      livemode: false,
      amount_total: 99,
      currency: 'usd',
      mode: 'payment',
    },
    cs_test_oddamount: {
      id: 'cs_test_oddamount',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      livemode: false,
      amount_total: 150,
      currency: 'usd',
      mode: 'payment',
    },
  };
  const calls = { stripe: 0, settle: 0 };
  let settleSucceeds = true;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url?.startsWith('/v1/checkout/sessions/')) {
        calls.stripe++;
        const session = sessions[req.url.split('/').pop()!.split('?')[0]!];
        res.writeHead(session ? 200 : 404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            session ?? { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } },
          ),
        );
        return;
      }
      if (req.url === '/supported') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kinds: SUPPORTS_BASE }));
        return;
      }
      if (req.url === '/settle') {
        calls.settle++;
        const { paymentPayload } = JSON.parse(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            settleSucceeds
              ? { success: true, transaction: '0xabc', network: 'base', payer: paymentPayload.payload.authorization.from }
              : { success: false, errorReason: 'insufficient_funds', transaction: '', network: 'base' },
          ),
        );
        return;
      }
      res.writeHead(404).end();
    });
  });
  return {
    calls,
    failSettlement: () => (settleSucceeds = false),
    start: async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const services = fakeServices();
let t: TestApp;
let nowS: number;
beforeAll(async () => {
  const url = await services.start();
  t = await startTestApp({
    env: { SVC_PAY_TO: PAY_TO, STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_URL: url, X402_FACILITATOR_URL: url, PAYMENT_SETTLE: 'sync' },
  });
  nowS = Math.floor(t.clock.now() / 1000);
});
afterAll(async () => {
  await t.close();
  await services.close();
});

const bundle = (headers: Record<string, string>, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/data/bundle',
    headers,
    payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }], ...extra },
  });

describe('passes', () => {
  it('a day pass costs 990000, is issued once paid and settled, and lasts exactly 24 h', async () => {
    const challenge = await t.app.inject({ method: 'POST', url: '/api/v1/pass/day' });
    expect(challenge.statusCode).toBe(402);
    expect(challenge.json().invoice.amount).toBe('990000');
    const header = await paymentHeader({ nowS, amount: 990_000n });
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/pass/day', headers: { 'x-payment': header } });
    expect(bought.statusCode).toBe(200);
    const { pass, kind, expires_at } = bought.json();
    expect(kind).toBe('day');
    expect(expires_at).toBe(nowS + 24 * 3600);
    expect(services.calls.settle).toBe(1);
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/pass/day', headers: { 'x-payment': header } });
    expect(again.json().pass).toBe(pass); // retry after a lost response: the same pass

    expect((await bundle({ authorization: `Bearer ${pass}` })).json().payment).toEqual({ method: 'pass', charged: true });
    t.clock.advance(24 * 3600_000 - 1000);
    expect((await bundle({ authorization: `Bearer ${pass}` })).statusCode).toBe(200);
    t.clock.advance(1000);
    const expired = await bundle({ authorization: `Bearer ${pass}` });
    expect(expired.statusCode).toBe(402);
    expect(expired.json().reason).toBe('pass_expired');
    t.clock.advance(-24 * 3600_000);
  });

  it('a week pass lasts 168 h; an unknown pass is refused', async () => {
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pass/week',
      headers: { 'x-payment': await paymentHeader({ nowS, amount: 4_990_000n }) },
    });
    expect(bought.json()).toMatchObject({ kind: 'week', expires_at: nowS + 168 * 3600 });
    expect((await bundle({ authorization: 'Bearer svc-pass_nope' })).json().reason).toBe('pass_unknown');
  });
});

describe('checkout sessions', () => {
  it('checks a paid session with Stripe once and redeems it into a pass; presenting it again returns the same pass', async () => {
    const first = await bundle({}, { session_id: 'cs_test_paidday' });
    expect(first.statusCode).toBe(200);
    expect(first.json().payment).toEqual({ method: 'session', charged: true });
    const pass = String(first.headers['x-svc-pass']);
    expect(pass).toMatch(/^svc-pass_/);
    const second = await bundle({}, { session_id: 'cs_test_paidday' });
    expect(second.headers['x-svc-pass']).toBe(pass);
    expect(services.calls.stripe).toBe(1);
    expect((await bundle({ authorization: `Bearer ${pass}` })).statusCode).toBe(200);
  });

  it('unknown, unpaid or odd-amount sessions are 402; a malformed id is 400', async () => {
    expect((await bundle({}, { session_id: 'cs_test_missing' })).json()).toMatchObject({
      error: 'payment_required',
      reason: 'checkout_session_unknown',
    });
    expect((await bundle({}, { session_id: 'cs_test_unpaid' })).json().reason).toBe('checkout_session_unpaid');
    expect((await bundle({}, { session_id: 'cs_test_oddamount' })).json().reason).toBe('checkout_session_amount_mismatch');
    const malformed = await bundle({}, { session_id: 'cs_live_abc' }); // a live id with a test key
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details).toMatchObject({ field: 'session_id' });
  });
});

describe('settlement', () => {
  it('sync: settles before answering and sets X-Payment-Response; a failed settlement withholds the answer with a 402', async () => {
    const res = await bundle({ 'x-payment': await paymentHeader({ nowS, amount: 1000n }) });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(Buffer.from(String(res.headers['x-payment-response']), 'base64').toString())).toMatchObject({
      success: true,
      transaction: '0xabc',
      network: 'base',
    });
    services.failSettlement();
    const failed = await bundle({ 'x-payment': await paymentHeader({ nowS, amount: 1000n }) });
    expect(failed.statusCode).toBe(402);
    expect(failed.json()).toMatchObject({ reason: 'settlement_failed', message: 'settlement failed: insufficient_funds' });
    const row = await t.deps.store.db
      .selectFrom('payment_authorizations')
      .select(['status', 'facilitator_json'])
      .where('status', '=', 'settle_failed')
      .executeTakeFirst();
    expect(JSON.parse(row!.facilitator_json!)).toMatchObject({ success: false, errorReason: 'insufficient_funds' });
  });
});

describe.each(SHARED_STORE_BACKENDS)('replay across two instances on %s', () => {
  it('an authorization used on one instance is refused on the other', async () => {
    const pgSchema = uniqueName('pay');
    const a = await startTestApp({
      postgres: true,
      pgSchema,
      env: { SVC_PAY_TO: PAY_TO, SVC_SIGNING_KEY: t.deps.config.signingKey ?? '' },
    });
    const b = await startTestApp({ postgres: true, pgSchema, sim: a.sim, clock: a.clock, env: { SVC_PAY_TO: PAY_TO } });
    const header = await paymentHeader({ nowS: Math.floor(a.clock.now() / 1000), amount: 1000n });
    const body = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
    const [ra, rb] = await Promise.all([
      a.app.inject({ method: 'POST', url: '/api/data/bundle', headers: { 'x-payment': header }, payload: body }),
      b.app.inject({
        method: 'POST',
        url: '/api/data/bundle',
        headers: { 'x-payment': header },
        payload: { queries: [{ type: 'weather', q: '3,3' }] },
      }),
    ]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 402]);
    expect([ra, rb].find((r) => r.statusCode === 402)!.json().reason).toBe('replayed_authorization');
    await b.close();
    await a.close();
  });
});

describe('asynchronous settlement', () => {
  it('queues the payment, settles it on the scheduler before validBefore, and answers browser preflights', async () => {
    const url = await fakeServices().start();
    const app = await startTestApp({ env: { SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: url, PAYMENT_SETTLE: 'async' } });
    const nowS = Math.floor(app.clock.now() / 1000);
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/data/bundle',
      headers: { origin: 'https://agent.example', 'x-payment': await paymentHeader({ nowS, amount: 1000n }) },
      payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] },
    });
    expect(res.headers['x-payment-status']).toBe('pending');
    const status = () =>
      app.deps.store.db.selectFrom('payment_authorizations').select(['status', 'settle_attempts']).executeTakeFirstOrThrow();
    expect(await status()).toEqual({ status: 'pending', settle_attempts: 0 });
    await app.app.scheduler.tick();
    expect(await status()).toEqual({ status: 'settled', settle_attempts: 1 });

    const preflight = await app.app.inject({
      method: 'OPTIONS',
      url: '/api/data/bundle',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-payment,content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('x-payment');
    expect(res.headers['access-control-allow-origin']).toBe('https://agent.example');
    expect(res.headers['access-control-expose-headers']).toContain('x-payment-response');
    // Not a CORS request (no Origin): no CORS headers, but caches still learn the answer varies by Origin.
    const plain = await app.app.inject({ url: '/api/v1/catalog' });
    expect(plain.headers['access-control-expose-headers']).toBeUndefined();
    expect(plain.headers.vary).toContain('Origin');
    await app.close();
  });
});
