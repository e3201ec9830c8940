import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { HOSTS } from '../../src/upstream/hosts.js';
import { PRICES } from '../../src/payments/pricing.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS, STORE_BACKENDS, uniqueName } from '../helpers/backends.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';

/**
 * Issue 11, finding 4: a paid answer is the answer that was paid for. A retry of the same request
 * with the same authorization gets the stored bytes (rows, `_receipt`, `as_of`), not a re-signed
 * copy; a paid call that fails after its authorization was claimed charges nothing and releases it.
 */
const bundleBody = {
  queries: [
    { type: 'crypto-price', q: 'bitcoin' },
    { type: 'weather', q: '40.71,-74.01' },
  ],
};
const nowS = (t: TestApp) => Math.floor(t.clock.now() / 1000);
/** What must be identical between an answer and its replay. */
const answerOf = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  type: res.headers['content-type'],
  paymentResponse: res.headers['x-payment-response'],
  body: res.body,
});
const authorizations = (t: TestApp) => t.deps.store.db.selectFrom('payment_authorizations').select(['status']).execute();
const storedAnswers = (t: TestApp) => t.deps.store.db.selectFrom('idempotent_requests').select(['response_json']).execute();

describe.each(STORE_BACKENDS)('paid answers on %s', (backend) => {
  const facilitator = new FakeFacilitator();
  let t: TestApp;
  beforeAll(async () => {
    const url = await facilitator.start();
    t = await startTestApp({
      postgres: backend === 'postgres',
      env: { SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: url, PAYMENT_SETTLE: 'sync' },
    });
  });
  afterAll(async () => {
    await t.close();
    await facilitator.close();
  });

  const bundle = (header: string, body: object = bundleBody) =>
    t.app.inject({ method: 'POST', url: '/api/data/bundle', payload: body, headers: { 'x-payment': header } });
  const backtest = (header: string, query: Record<string, string>) =>
    t.app.inject({ url: '/api/v1/backtest', query, headers: { 'x-payment': header } });
  const context = (header: string, goal: string) =>
    t.app.inject({ url: '/api/v1/agent-context', query: { goal }, headers: { 'x-payment': header } });

  // First: a cached answer from an earlier test (DGS10 is a supporting fetch of every crypto goal) would count as a success.
  it('a paid agent-context whose every fetch fails charges nothing; the same authorization then pays for the retry', async () => {
    const goal = 'should I sell SOL now?';
    const header = await paymentHeader({ nowS: nowS(t), amount: PRICES.agentContext });
    const settledBefore = facilitator.settled.length;
    for (const host of Object.keys(HOSTS)) t.sim.fault(host, { kind: 'status', status: 500 });
    const failed = await context(header, goal);
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    expect(failed.statusCode, failed.body.slice(0, 500)).toBe(200);
    expect(failed.json().context.primary.every((r: { ok: boolean }) => !r.ok)).toBe(true);
    expect(failed.headers['x-payment-status']).toBe('released');
    expect(facilitator.settled.length).toBe(settledBefore);

    const retried = await context(header, goal);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().context.primary.some((r: { ok: boolean }) => r.ok)).toBe(true);
    expect(retried.headers['x-payment-response']).toBeDefined();
    expect(facilitator.settled.length).toBe(settledBefore + 1);
  });

  it('a replayed bundle payment returns the original answer byte for byte, settled once', async () => {
    const header = await paymentHeader({ nowS: nowS(t), amount: 1000n });
    const first = await bundle(header);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ payment: { method: 'x402', charged: true }, _receipt: { sources: ['coingecko', 'open-meteo'] } });
    const settledBefore = facilitator.settled.length;

    t.clock.advance(30_000); // a re-signed answer would now carry a later issued_at
    const replay = await bundle(header);
    expect(answerOf(replay)).toEqual(answerOf(first));
    expect(replay.json()._receipt.sources).toEqual(['coingecko', 'open-meteo']);
    expect(facilitator.settled.length).toBe(settledBefore);

    const otherRequest = await bundle(header, { queries: [{ type: 'weather', q: '1,1' }] });
    expect(otherRequest.statusCode).toBe(402);
    expect(otherRequest.json().reason).toBe('replayed_authorization');
  });

  it('a replayed backtest and agent-context payment return their original bytes too', async () => {
    const from = String(nowS(t) - 20 * 86_400);
    const query = { type: 'crypto-price', q: 'ETH', from, to: String(nowS(t)) };
    const paidBacktest = await paymentHeader({ nowS: nowS(t), amount: PRICES.backtest });
    const first = await backtest(paidBacktest, query);
    expect(first.json()).toMatchObject({ paid: true, source: 'binance' });
    const paidContext = await paymentHeader({ nowS: nowS(t), amount: PRICES.agentContext });
    const firstContext = await context(paidContext, 'Should I buy BTC this week?');
    expect(firstContext.json()).toMatchObject({ paid: true });

    t.clock.advance(20_000);
    expect(answerOf(await backtest(paidBacktest, query))).toEqual(answerOf(first));
    expect(answerOf(await context(paidContext, 'Should I buy BTC this week?'))).toEqual(answerOf(firstContext));
  });

  it('a paid backtest that fails after the claim charges nothing; the same authorization then pays for the retry', async () => {
    const query = { type: 'crypto-price', q: 'DOGE', from: String(nowS(t) - 10 * 86_400), to: String(nowS(t)) };
    const header = await paymentHeader({ nowS: nowS(t), amount: PRICES.backtest });
    const settledBefore = facilitator.settled.length;
    t.sim.fault('binance', { kind: 'status', status: 500 });
    const failed = await backtest(header, query);
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    expect(failed.statusCode).toBe(503);
    expect(facilitator.settled.length).toBe(settledBefore);
    expect((await authorizations(t)).filter((a) => a.status === 'reserved')).toEqual([]);

    const retried = await backtest(header, query);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ paid: true, source: 'binance' });
    expect(facilitator.settled.length).toBe(settledBefore + 1);
  });

  it('keeps the answer as it was sent: the stored bytes are the signed body', async () => {
    const header = await paymentHeader({ nowS: nowS(t), amount: 1000n });
    const res = await bundle(header, { queries: [{ type: 'forex', q: 'EUR:USD' }] });
    const rows = await storedAnswers(t);
    const stored = rows.map((r) => (r.response_json ? JSON.parse(r.response_json) : undefined)).find((a) => a?.body === res.body);
    expect(stored).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-payment-response': res.headers['x-payment-response'] },
    });
  });
});

describe.each(SHARED_STORE_BACKENDS)('paid answers across two instances on %s', () => {
  it("the payer's retry on the other instance gets the first instance's bytes, though each signs with its own key", async () => {
    const pgSchema = uniqueName('replay');
    const a = await startTestApp({ postgres: true, pgSchema, env: { SVC_PAY_TO: PAY_TO } });
    const b = await startTestApp({ postgres: true, pgSchema, sim: a.sim, clock: a.clock, env: { SVC_PAY_TO: PAY_TO } });
    try {
      const header = await paymentHeader({ nowS: nowS(a), amount: 1000n });
      const send = (app: TestApp) =>
        app.app.inject({ method: 'POST', url: '/api/data/bundle', payload: bundleBody, headers: { 'x-payment': header } });
      const first = await send(a);
      expect(first.statusCode).toBe(200);
      a.clock.advance(10_000);
      const replay = await send(b);
      expect(answerOf(replay)).toEqual(answerOf(first));
      const fresh = await b.app.inject({ url: '/api/data/preview', query: { type: 'forex', q: 'EUR:USD' } });
      expect(fresh.json()._receipt.kid).not.toBe(first.json()._receipt.kid);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
