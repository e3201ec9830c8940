import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchWithPaymentV1, decodeXPaymentResponse } from 'x402-fetch';
import { ManualClock } from '../../src/core/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, payer } from '../helpers/x402.js';

/**
 * Stock x402 clients with a local viem account pay over a socket, settled by a loopback facilitator:
 * @x402/fetch + @x402/evm reads PAYMENT-REQUIRED and pays v2 (PAYMENT-SIGNATURE → PAYMENT-RESPONSE);
 * x402-fetch 1.2 reads the v1 body and pays v1 (X-PAYMENT → X-PAYMENT-RESPONSE).
 */
const facilitator = new FakeFacilitator();
let t: TestApp;
let base: string;
beforeAll(async () => {
  const url = await facilitator.start();
  // The clients sign with the real clock, so the service runs on the real clock too.
  t = await startTestApp({
    env: { SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: url, PAYMENT_SETTLE: 'sync' },
    clock: new ManualClock(Date.now()),
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await facilitator.close();
});

function v2Client() {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer });
  client.setSpendControls({ maxAmountPerPayment: '$5' }); // the default $1 cap refuses passes
  return wrapFetchWithPayment(fetch, client);
}
const v1Client = () => wrapFetchWithPaymentV1(fetch, payer, 5_000_000n);
const bundleRequest = (q: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    queries: [
      { type: 'crypto-price', q },
      { type: 'weather', q: '40.71,-74.01' },
    ],
  }),
});
const decode = (header: string | null) => JSON.parse(Buffer.from(String(header), 'base64').toString('utf8'));

describe('stock x402 clients pay a bundle', () => {
  it('v2 (@x402/fetch + @x402/evm): PAYMENT-SIGNATURE in, PAYMENT-RESPONSE out, settled as v2', async () => {
    const res = await v2Client()(`${base}/api/data/bundle`, bundleRequest('bitcoin'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { payment: unknown; results: { ok: boolean }[] };
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    expect(body.results.every((r) => r.ok)).toBe(true);
    expect(decode(res.headers.get('payment-response'))).toMatchObject({ success: true, network: 'eip155:8453', payer: payer.address });
    expect(res.headers.get('x-payment-response')).toBeNull();
    const settled = facilitator.settled.at(-1) as unknown as {
      x402Version: number;
      paymentRequirements: { network: string; amount: string };
    };
    expect(settled).toMatchObject({ x402Version: 2, paymentRequirements: { network: 'eip155:8453', amount: '1000' } });
  });

  it('v1 (x402-fetch 1.2): X-PAYMENT in, X-PAYMENT-RESPONSE out, settled as v1', async () => {
    const res = await v1Client()(`${base}/api/data/bundle`, bundleRequest('ethereum'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { payment: unknown }).payment).toEqual({ method: 'x402', charged: true });
    expect(decodeXPaymentResponse(res.headers.get('x-payment-response')!)).toMatchObject({ success: true, network: 'base' });
    expect(res.headers.get('payment-response')).toBeNull();
    const settled = facilitator.settled.at(-1) as unknown as {
      x402Version: number;
      paymentRequirements: { network: string; maxAmountRequired: string };
    };
    expect(settled).toMatchObject({ x402Version: 1, paymentRequirements: { network: 'base', maxAmountRequired: '1000' } });
  });
});

describe('stock x402 clients reach the paid tiers and buy passes', () => {
  const nowS = () => Math.floor(Date.now() / 1000);
  const backtestUrl = (q: string) => `${base}/api/v1/backtest?type=crypto-price&q=${q}&from=${nowS() - 30 * 86_400}&to=${nowS()}&tier=paid`;

  it('v2: a paid backtest (tier=paid) and a pass', async () => {
    const res = await v2Client()(backtestUrl('SOL'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { paid: boolean; count: number };
    expect(body.paid).toBe(true);
    expect(body.count).toBeGreaterThan(100); // more than the free tier's last 100 candles
    const pass = await v2Client()(`${base}/api/v1/pass/day`, { method: 'POST' });
    expect(pass.status).toBe(200);
    expect(await pass.json()).toMatchObject({ kind: 'day', pass: expect.stringMatching(/^svc-pass_/) });
    expect(decode(pass.headers.get('payment-response'))).toMatchObject({ success: true });
  });

  it('v1: a paid agent-context (tier=paid) and a week pass above the default cap', async () => {
    const res = await v1Client()(`${base}/api/v1/agent-context?goal=${encodeURIComponent('Should I buy BTC this week?')}&tier=paid`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { paid: boolean; context: { supporting: { ok: boolean }[] } };
    expect(body.paid).toBe(true);
    expect(body.context.supporting.some((r) => r.ok)).toBe(true);
    const pass = await v1Client()(`${base}/api/v1/pass/week`, { method: 'POST' });
    expect(pass.status).toBe(200);
    expect(await pass.json()).toMatchObject({ kind: 'week' });
  });
});
