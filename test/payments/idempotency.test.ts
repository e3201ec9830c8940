import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { PRICES } from '../../src/payments/pricing.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/payments/idempotency.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS, STORE_BACKENDS, uniqueName } from '../helpers/backends.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';

/**
 * Issue 35, item 4: a retried paid call is charged once and answered the same every time: the same x402 payment ten
 * times at once (one instance or two behind one database, over HTTP and MCP), and Stripe's Idempotency-Key on paid
 * POSTs (same key + same body: the stored answer, without claiming the new payment; another body: 422; 24 h).
 */
const body = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const nowS = (t: TestApp) => Math.floor(t.clock.now() / 1000);
/** What a retry must get again: status, body bytes (rows and receipt) and the settlement header. */
const answerOf = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  body: res.body,
  paymentResponse: res.headers['x-payment-response'],
});
const bundle = (t: TestApp, headers: Record<string, string>, payload: object = body) =>
  t.app.inject({ method: 'POST', url: '/api/data/bundle', payload, headers });
const env = (facilitator: string) => ({ SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: facilitator, PAYMENT_SETTLE: 'sync' });
/** One MCP tools/call of bundle, paid with `payment` (a v1 payload object) in `_meta["x402/payment"]`. */
const mcpBundle = (t: TestApp, payment: unknown, id: number) =>
  t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bundle', arguments: body, _meta: { 'x402/payment': payment } } },
  });
const decoded = (header: string) => JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as unknown;

// One facilitator for the file: a second one could reuse the port of a closed first, behind a stale pooled connection.
const facilitator = new FakeFacilitator();
let facilitatorUrl: string;
beforeAll(async () => {
  facilitatorUrl = await facilitator.start();
});
afterAll(() => facilitator.close());

describe.each(STORE_BACKENDS)('idempotent paid requests on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres', env: env(facilitatorUrl) });
  });
  afterAll(() => t.close());

  it('ten concurrent retries of one payment: one charge, ten identical answers', async () => {
    const header = await paymentHeader({ nowS: nowS(t), amount: 1000n });
    const settled = facilitator.settled.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => bundle(t, { 'x-payment': header })));
    expect(answers[0]!.json()).toMatchObject({ payment: { method: 'x402', charged: true } });
    for (const answer of answers) expect(answerOf(answer)).toEqual(answerOf(answers[0]!));
    expect(facilitator.settled.length).toBe(settled + 1);
  });

  it('the same payment ten times at once over MCP: one charge, ten identical results', async () => {
    const payment = decoded(await paymentHeader({ nowS: nowS(t), amount: 1000n }));
    const settled = facilitator.settled.length;
    const results = (await Promise.all(Array.from({ length: 10 }, (_, i) => mcpBundle(t, payment, i)))).map((r) => r.json().result);
    expect(results[0]).toMatchObject({
      structuredContent: { payment: { charged: true } },
      _meta: { 'x402/payment-response': { success: true } },
    });
    for (const result of results) {
      expect(result.structuredContent).toEqual(results[0].structuredContent);
      expect(result._meta['x402/payment-response']).toEqual(results[0]._meta['x402/payment-response']);
    }
    expect(facilitator.settled.length).toBe(settled + 1);
  });

  it('Idempotency-Key: the same key and body get the stored answer without claiming the new payment; another body is 422', async () => {
    const key = uniqueName('order');
    const first = await bundle(t, { 'idempotency-key': key, 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
    expect(first.statusCode).toBe(200);
    const settled = facilitator.settled.length;
    const claims = await t.deps.store.db.selectFrom('payment_authorizations').select('auth_key').execute();

    // The agent's payment library signed a fresh payment for the retry: it is neither charged nor claimed.
    const fresh = await paymentHeader({ nowS: nowS(t), amount: 1000n });
    expect(answerOf(await bundle(t, { 'idempotency-key': key, 'x-payment': fresh }))).toEqual(answerOf(first));
    expect(facilitator.settled.length).toBe(settled);
    expect(await t.deps.store.db.selectFrom('payment_authorizations').select('auth_key').execute()).toHaveLength(claims.length);

    const other = await bundle(t, { 'idempotency-key': key, 'x-payment': fresh }, { queries: [{ type: 'forex', q: 'EUR:USD' }] });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ error: 'idempotency_key_reused', details: { field: 'Idempotency-Key' } });

    // After 24 h the key is new again: the same body runs again and is charged again.
    t.clock.advance(IDEMPOTENCY_TTL_MS);
    const later = await bundle(t, { 'idempotency-key': key, 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
    expect(later.statusCode).toBe(200);
    expect(later.body).not.toBe(first.body);
    expect(facilitator.settled.length).toBe(settled + 1);
  });

  it('a malformed Idempotency-Key is a 400 naming the header', async () => {
    const res = await bundle(t, { 'idempotency-key': 'with space', 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', details: { field: 'Idempotency-Key', rule: 'format' } });
  });

  it('a pass is debited once per idempotent request: retries with the key get the stored bytes', async () => {
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pass/day',
      headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: PRICES.dayPass }) },
    });
    const pass = bought.json().pass as string;
    const key = uniqueName('pass-order');
    const send = () => bundle(t, { authorization: `Bearer ${pass}`, 'idempotency-key': key });
    const [first, ...retries] = await Promise.all([send(), send(), send()]);
    expect(first!.json()).toMatchObject({ payment: { method: 'pass', charged: true } });
    for (const retry of retries) expect(retry.body).toBe(first!.body);
    expect(retries.concat(await send()).every((r) => r.body === first!.body)).toBe(true);
    const debits = await t.deps.store.db
      .selectFrom('idempotent_requests')
      .select('charge_method')
      .where('charge_method', '=', 'pass')
      .execute();
    expect(debits).toHaveLength(1);
  });
});

describe.each(SHARED_STORE_BACKENDS)('ten concurrent retries across two instances on %s and one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const url = facilitatorUrl;
    const shared = { postgres: true, redis: true, pgSchema: uniqueName('idem'), redisPrefix: uniqueName('idem') };
    a = await startTestApp({ ...shared, env: env(url) });
    b = await startTestApp({ ...shared, sim: a.sim, clock: a.clock, env: env(url) });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('over HTTP: one charge and ten identical answers, the bytes of whichever instance ran it', async () => {
    const header = await paymentHeader({ nowS: nowS(a), amount: 1000n });
    const settled = facilitator.settled.length;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => bundle(i % 2 ? b : a, { 'x-payment': header })));
    for (const answer of answers) expect(answerOf(answer)).toEqual(answerOf(answers[0]!));
    expect(answers[0]!.json()).toMatchObject({ payment: { charged: true } });
    expect(facilitator.settled.length).toBe(settled + 1);
  });

  it('over MCP: one charge and ten identical results', async () => {
    const payment = decoded(await paymentHeader({ nowS: nowS(a), amount: 1000n }));
    const settled = facilitator.settled.length;
    const results = (await Promise.all(Array.from({ length: 10 }, (_, i) => mcpBundle(i % 2 ? b : a, payment, i)))).map(
      (r) => r.json().result,
    );
    for (const result of results) expect(result.structuredContent).toEqual(results[0].structuredContent);
    expect(facilitator.settled.length).toBe(settled + 1);
  });
});
