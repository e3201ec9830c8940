import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { domainSeparator } from '../../src/payments/x402.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, payer, paymentHeader, type PaymentOptions } from '../helpers/x402.js';

let t: TestApp;
let nowS: number;
beforeAll(async () => {
  t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO } });
  nowS = Math.floor(t.clock.now() / 1000);
});
afterAll(() => t.close());
beforeEach(() => t.sim.clearFaults());

const oneQuery = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const threeQueries = {
  queries: [
    { type: 'crypto-price', q: 'bitcoin' },
    { type: 'weather', q: '1,1' },
    { type: 'economic-indicator', q: 'DGS10' },
  ],
};
/** Each call from its own address: this suite sends more invalid payments than the abuse detector lets one IP send. */
const someIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const pay = async (body: object, options: Partial<PaymentOptions> = {}, header?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/data/bundle',
    payload: body,
    remoteAddress: someIp(),
    headers: { 'x-payment': header ?? (await paymentHeader({ nowS, amount: 1000n, ...options })) },
  });

describe('x402 verification', () => {
  it('checks both USDC domain separators against the on-chain constants', async () => {
    expect(await domainSeparator('base')).toBe('0x02fa7265e7c5d81118673727957699e4d68f74cd74b7db77da710fe8a2c7834f');
    expect(await domainSeparator('base-sepolia')).toBe('0x71f17a3b2ff373b803d70a5a07c046c1a2bc8e89c09ef722fcb047abe94c9818');
  });

  it('accepts a valid payment (base64 or raw JSON) and records it', async () => {
    const res = await pay(oneQuery);
    expect(res.statusCode).toBe(200);
    // PAYMENT_SETTLE=off here: verified and recorded, but nothing settles, so nothing is charged.
    expect(res.json()).toMatchObject({ count: 1, free: false, payment: { method: 'x402', charged: false }, results: [{ ok: true }] });
    expect(res.headers['x-payment-status']).toBe('unsettled');
    const raw = await pay(oneQuery, { encoding: 'raw' });
    expect(raw.statusCode).toBe(200);
    const rows = await t.deps.store.db.selectFrom('payment_authorizations').selectAll().where('payer', '=', payer.address).execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({ amount: '1000', status: 'unsettled', network: 'base', resource: 'http://svc.test/api/data/bundle' });
  });

  it("refuses a replay, but answers the payer's retry of the same request with the stored result", async () => {
    const header = await paymentHeader({ nowS, amount: 1000n });
    const first = await pay(oneQuery, {}, header);
    expect(first.statusCode).toBe(200);
    const retry = await pay(oneQuery, {}, header);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().results).toEqual(first.json().results);
    const other = await pay({ queries: [{ type: 'weather', q: '2,2' }] }, {}, header);
    expect(other.statusCode).toBe(402);
    expect(other.json().reason).toBe('replayed_authorization');
  });

  it.each<[string, Partial<PaymentOptions>, string]>([
    ['an altered amount', { amount: 999n }, 'invalid_exact_evm_payload_authorization_value'],
    ['a wrong recipient', { to: '0x2222222222222222222222222222222222222222' }, 'invalid_exact_evm_payload_recipient_mismatch'],
    ['a wrong network', { network: 'base-sepolia' }, 'invalid_network'],
    ['an expired authorization', { validBefore: 0, validAfter: 0 }, 'invalid_exact_evm_payload_authorization_valid_before'],
    ['a not-yet-valid authorization', { validAfter: 10 }, 'invalid_exact_evm_payload_authorization_valid_after'],
    ['a validity window beyond maxTimeoutSeconds', { validBefore: 3600 }, 'invalid_exact_evm_payload_authorization_valid_before'],
    ['a signature by another key', { impostor: true }, 'invalid_exact_evm_payload_signature'],
    ['a high-s signature', { highS: true }, 'invalid_exact_evm_payload_signature'],
    ["a signature over the other network's domain", { signNetwork: 'base-sepolia' }, 'invalid_exact_evm_payload_signature'],
  ])('refuses %s with 402 %s', async (_name, options, reason) => {
    const relative = { ...options };
    if (options.validBefore !== undefined) relative.validBefore = nowS + options.validBefore;
    if (options.validAfter !== undefined) relative.validAfter = nowS + options.validAfter;
    const res = await pay(oneQuery, relative);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: 'payment_required', reason, x402Version: 1 });
  });

  it('prices a bundle from its own body: an underpriced or overpriced payment is refused', async () => {
    expect((await pay(threeQueries, { amount: 1000n })).json().reason).toBe('invalid_exact_evm_payload_authorization_value');
    expect((await pay(oneQuery, { amount: 3500n })).json().reason).toBe('invalid_exact_evm_payload_authorization_value');
    expect((await pay(threeQueries, { amount: 3500n })).statusCode).toBe(200);
  });

  it('answers a malformed payment with 400 naming the header: not JSON, JSON of the wrong shape, too long (x402 v2 HTTP transport)', async () => {
    const notJson = await pay(oneQuery, {}, '%%%not-base64-or-json%%%');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().details).toMatchObject({ field: 'X-Payment' });
    const wrongShape = await pay(oneQuery, {}, Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact' })).toString('base64'));
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json().details).toMatchObject({ field: 'X-Payment', rule: 'x402_payload', reason: 'invalid_payload' });
    const tooLong = await pay(oneQuery, {}, 'x'.repeat(10_000));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().details).toMatchObject({ field: 'X-Payment', rule: 'x402_payload' });
  });

  it('charges nothing when every query failed: the authorization is released and can pay again', async () => {
    for (const host of ['open-meteo', 'met-no']) t.sim.fault(host, { kind: 'status', status: 500 });
    const header = await paymentHeader({ nowS, amount: 1000n });
    const failed = await pay({ queries: [{ type: 'weather', q: '12.5,12.5' }] }, {}, header);
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toMatchObject({ payment: { charged: false }, results: [{ ok: false, error: 'upstream_error' }] });
    expect(failed.headers['x-payment-status']).toBe('released');
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    const again = await pay({ queries: [{ type: 'weather', q: '12.5,12.5' }] }, {}, header);
    expect(again.json().results[0].ok).toBe(true);
    expect(again.headers['x-payment-status']).toBe('unsettled');
  });

  it('the bare presence of an X-Payment header unlocks nothing in backtest', async () => {
    const res = await t.app.inject({
      url: '/api/v1/backtest',
      remoteAddress: someIp(),
      query: { type: 'crypto-price', q: 'SOL', from: String(nowS - 30 * 86_400), to: String(nowS) },
      headers: { 'x-payment': await paymentHeader({ nowS, amount: 5000n, impostor: true }) },
    });
    expect(res.statusCode).toBe(402);
    const paid = await t.app.inject({
      url: '/api/v1/backtest',
      query: { type: 'crypto-price', q: 'SOL', from: String(nowS - 30 * 86_400), to: String(nowS) },
      headers: { 'x-payment': await paymentHeader({ nowS, amount: 5000n }) },
    });
    expect(paid.json(), paid.body.slice(0, 300)).toMatchObject({ paid: true, count: 149 });
  });
});
