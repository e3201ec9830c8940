import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, SMART_WALLET, payer, paymentHeader, paymentRequired } from '../helpers/x402.js';

/** Issue 28.3: smart wallets are verified by the facilitator, PAYMENT_VERIFY picks who checks, failures answer as x402 v2 says. */
const oneQuery = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const ERC6492_MAGIC = '6492649264926492649264926492649264926492649264926492649264926492';
const nowS = (t: TestApp) => Math.floor(t.clock.now() / 1000);
const decode = (header: unknown) => JSON.parse(Buffer.from(String(header), 'base64').toString('utf8'));

let sim: Simulator;
beforeAll(async () => {
  sim = await new Simulator(loadFixtures()).start();
});
afterAll(() => sim.close());

/** An app settling synchronously through a fresh fake facilitator (or none), with PAYMENT_VERIFY = `verify`. */
async function withApp(verify: string | undefined, use: (t: TestApp, f: FakeFacilitator) => Promise<void>, facilitated = true) {
  const facilitator = new FakeFacilitator();
  const env: Record<string, string> = { SVC_PAY_TO: PAY_TO, ...(verify ? { PAYMENT_VERIFY: verify } : {}) };
  if (facilitated) Object.assign(env, { PAYMENT_SETTLE: 'sync', X402_FACILITATOR_URL: await facilitator.start() });
  const t = await startTestApp({ sim, env });
  try {
    await use(t, facilitator);
  } finally {
    await t.close();
    if (facilitated) await facilitator.close();
  }
}

const bundle = (t: TestApp, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/data/bundle', payload: oneQuery, headers });
const claims = (t: TestApp) => t.deps.store.db.selectFrom('payment_authorizations').selectAll().execute();

describe('PAYMENT_VERIFY=local (the default)', () => {
  it('an EOA signature is checked offline; a smart wallet’s EIP-6492 signature goes to the facilitator’s /verify and pays', () =>
    withApp(undefined, async (t, f) => {
      expect((await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) })).statusCode).toBe(200);
      expect(f.verified).toHaveLength(0);

      const header = await paymentHeader({ nowS: nowS(t), amount: 1000n, smartWallet: true });
      const paid = await bundle(t, { 'x-payment': header });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().payment).toEqual({ method: 'x402', charged: true });
      expect(f.verified).toHaveLength(1);
      const [call] = f.verified;
      expect(call!.x402Version).toBe(1);
      expect(call!.paymentPayload.payload.signature.endsWith(ERC6492_MAGIC)).toBe(true);
      expect(call!.paymentPayload.payload.authorization.from).toBe(SMART_WALLET);
      expect(call!.paymentRequirements).toMatchObject({ network: 'base', maxAmountRequired: '1000', payTo: PAY_TO });
      expect(decode(paid.headers['x-payment-response'])).toMatchObject({
        success: true,
        payer: expect.stringMatching(new RegExp(SMART_WALLET, 'i')),
      });
      expect(f.settled).toHaveLength(2);
      // Replay of the same smart-wallet payment: the stored answer, byte for byte, and no second settlement.
      const again = await bundle(t, { 'x-payment': header });
      expect(again.body).toBe(paid.body);
      expect(f.settled).toHaveLength(2);
    }));

  it('a smart-wallet signature the facilitator finds invalid is a 402 with its reason, and claims nothing', () =>
    withApp(undefined, async (t, f) => {
      f.verdict = { isValid: false, invalidReason: 'invalid_exact_evm_payload_undeployed_smart_wallet' };
      const res = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n, smartWallet: true }) });
      expect(res.statusCode).toBe(402);
      expect(res.json().reason).toBe('invalid_exact_evm_payload_undeployed_smart_wallet');
      expect(await claims(t)).toHaveLength(0);
    }));

  it('without a facilitator a smart-wallet signature cannot be checked and is refused', () =>
    withApp(
      undefined,
      async (t) => {
        const res = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n, smartWallet: true }) });
        expect(res.statusCode).toBe(402);
        expect(res.json().reason).toBe('invalid_exact_evm_payload_signature');
      },
      false,
    ));
});

describe('PAYMENT_VERIFY=facilitator and both', () => {
  it('facilitator: every payment goes to /verify, v2 with the v2 requirements; its refusal is the 402 reason', () =>
    withApp('facilitator', async (t, f) => {
      const [accepted] = paymentRequired((await bundle(t, {})).headers['payment-required']).accepts;
      const v2 = await bundle(t, { 'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n, accepted }) });
      expect(v2.statusCode).toBe(200);
      expect(f.verified).toHaveLength(1);
      expect(f.verified[0]).toMatchObject({ x402Version: 2, paymentRequirements: accepted });
      f.verdict = { isValid: false, invalidReason: 'insufficient_funds' };
      const refused = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
      expect(refused.statusCode).toBe(402);
      expect(refused.json().reason).toBe('insufficient_funds');
      expect(f.verified).toHaveLength(2);
    }));

  it('facilitator: terms are still svc’s (a wrong amount never reaches /verify); an unreachable facilitator is a 503', () =>
    withApp('facilitator', async (t, f) => {
      const cheap = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 999n }) });
      expect(cheap.json().reason).toBe('invalid_exact_evm_payload_authorization_value');
      expect(f.verified).toHaveLength(0);
      await f.close();
      const down = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ error: 'service_unavailable', details: { retry_after_s: 5 } });
      expect(down.body).not.toContain('127.0.0.1');
      expect(await claims(t)).toHaveLength(0);
    }));

  it('both: a bad EOA signature is refused offline without asking; a good one is also verified by the facilitator', () =>
    withApp('both', async (t, f) => {
      const forged = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n, impostor: true }) });
      expect(forged.json().reason).toBe('invalid_exact_evm_payload_signature');
      expect(f.verified).toHaveLength(0);
      expect((await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) })).statusCode).toBe(200);
      expect(f.verified.map((c) => c.paymentPayload.payload.authorization.from)).toEqual([payer.address]);
    }));

  it('PAYMENT_VERIFY other than local needs X402_FACILITATOR_URL; an unknown value is refused', () => {
    expect(() => loadConfig({ PAYMENT_VERIFY: 'facilitator' })).toThrow(/PAYMENT_VERIFY: "facilitator" needs X402_FACILITATOR_URL/);
    expect(() => loadConfig({ PAYMENT_VERIFY: 'both' })).toThrow(/PAYMENT_VERIFY/);
    expect(() => loadConfig({ PAYMENT_VERIFY: 'chain' })).toThrow(/PAYMENT_VERIFY/);
    expect(loadConfig({}).paymentVerify).toBe('local');
  });
});

describe('failures as the x402 HTTP transport describes them', () => {
  it('a failed settlement is a 402 whose payment-response header says {success: false, errorReason}, in the header of the version paid', () =>
    withApp(undefined, async (t, f) => {
      f.succeed = false;
      const [accepted] = paymentRequired((await bundle(t, {})).headers['payment-required']).accepts;
      const v2 = await bundle(t, { 'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n, accepted }) });
      expect(v2.statusCode).toBe(402);
      expect(decode(v2.headers['payment-response'])).toEqual({
        success: false,
        errorReason: 'insufficient_funds',
        transaction: '',
        network: 'eip155:8453',
        payer: payer.address,
      });
      expect(v2.json()).toMatchObject({ reason: 'settlement_failed' });
      const v1 = await bundle(t, { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) });
      expect(v1.statusCode).toBe(402);
      expect(decode(v1.headers['x-payment-response'])).toMatchObject({
        success: false,
        errorReason: 'insufficient_funds',
        network: 'base',
      });
      expect(v1.headers['payment-response']).toBeUndefined();
    }));

  it('a malformed payment is a 400 naming the header: not JSON, or JSON that is not a payment payload', () =>
    withApp(undefined, async (t) => {
      const notJson = await bundle(t, { 'x-payment': '%%%' });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json().details).toMatchObject({ field: 'X-Payment', rule: 'json' });
      const wrongShape = await bundle(t, {
        'payment-signature': Buffer.from(JSON.stringify({ x402Version: 2, accepted: {} })).toString('base64'),
      });
      expect(wrongShape.statusCode).toBe(400);
      expect(wrongShape.json()).toMatchObject({ error: 'bad_request', details: { field: 'PAYMENT-SIGNATURE', rule: 'x402_payload' } });
    }));
});
