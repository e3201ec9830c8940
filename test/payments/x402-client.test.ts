import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { ManualClock } from '../../src/core/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, payer } from '../helpers/x402.js';

/** A stock x402 client (@x402/fetch + @x402/evm, local viem account) pays a bundle end to end over a socket. */
let t: TestApp;
let base: string;
beforeAll(async () => {
  // The client signs with the real clock, so the service runs on the real clock too.
  t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO }, clock: new ManualClock(Date.now()) });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('stock x402 client', () => {
  it('reads the 402, signs the exact payment and gets the bundle', async () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: payer });
    const pay = wrapFetchWithPayment(fetch, client);
    const res = await pay(`${base}/api/data/bundle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ queries: [{ type: 'crypto-price', q: 'bitcoin' }, { type: 'weather', q: '40.71,-74.01' }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { payment: unknown; results: { ok: boolean }[] };
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    expect(body.results.every((r) => r.ok)).toBe(true);
    const row = await t.deps.store.db.selectFrom('payment_authorizations').selectAll().executeTakeFirst();
    expect(row).toMatchObject({ payer: payer.address, amount: '1000', status: 'unsettled' });
  });
});
