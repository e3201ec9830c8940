import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO } from '../helpers/x402.js';
import { WallClock } from './wall-clock.js';
import { PaymentRequiredError, SpendCapError, createClient, verifyReceipt } from '../../packages/client/src/index.js';

/** The SDK against a listening service that verifies payments locally and settles with a loopback facilitator. */
let t: TestApp;
let base: string;
const facilitator = new FakeFacilitator();
const wallet = () => privateKeyToAccount(generatePrivateKey());
const twoQueries = {
  queries: [
    { type: 'crypto-price' as const, q: 'bitcoin' },
    { type: 'weather' as const, q: '40.71,-74.01' },
  ],
};
const authorizations = () => t.deps.store.db.selectFrom('payment_authorizations').selectAll().execute();

beforeAll(async () => {
  t = await startTestApp({
    env: { SVC_PAY_TO: PAY_TO, PAYMENT_SETTLE: 'sync', X402_FACILITATOR_URL: await facilitator.start() },
    clock: new WallClock(),
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await facilitator.close();
});

describe('SDK payments', () => {
  it('pays a bundle with a local account (x402 v2, as the service offers it), and the service settles it', async () => {
    const account = wallet();
    const client = createClient({ baseUrl: base, wallet: account });
    const body = await client.bundle(twoQueries);
    expect(body.results.map((r) => r.ok)).toEqual([true, true]);
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    expect(client.spent()).toBe(1000n);
    expect(client.lastPayment()).toMatchObject({
      version: 2,
      amount: 1000n,
      payer: account.address,
      settlement: { success: true, payer: account.address },
    });
    expect(facilitator.settled.at(-1)!.paymentPayload.payload.authorization.from).toBe(account.address);
    expect((await authorizations()).find((a) => a.payer === account.address)).toMatchObject({ amount: '1000', status: 'settled' });
  });

  it('without a wallet a paid call is a typed PaymentRequiredError naming the price', async () => {
    const error = await createClient({ baseUrl: base })
      .bundle(twoQueries)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.amount).toBe(1000n);
  });

  it('refuses before signing when the per-call cap or the session cap would be exceeded', async () => {
    const account = wallet();
    const before = facilitator.settled.length;
    const tight = createClient({ baseUrl: base, wallet: account, maxPaymentUsd: 0.0009 });
    const perCall = await tight.bundle(twoQueries).catch((e) => e);
    expect(perCall).toBeInstanceOf(SpendCapError);
    expect(perCall).toMatchObject({ cap: 'per_call', amount: 1000n, remaining: 900n });

    const session = createClient({ baseUrl: base, wallet: account, maxSessionUsd: 0.0015 });
    await session.bundle(twoQueries);
    const second = await session.bundle(twoQueries).catch((e) => e);
    expect(second).toMatchObject({ name: 'SpendCapError', cap: 'session', amount: 1000n, remaining: 500n });
    expect(session.spent()).toBe(1000n);
    expect(facilitator.settled.length).toBe(before + 1);
    expect((await authorizations()).filter((a) => a.payer === account.address)).toHaveLength(1);
  });

  it('retries a lost response with the same payment: one authorization, one settlement, the same answer', async () => {
    const account = wallet();
    const sent: string[] = [];
    let drop = true;
    const lossy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      // The service offers x402 v2 (PAYMENT-REQUIRED), so the SDK pays with PAYMENT-SIGNATURE.
      const payment = new Headers(init?.headers).get('payment-signature');
      if (payment) sent.push(payment);
      if (payment && drop) {
        drop = false;
        await response.arrayBuffer();
        throw new TypeError('fetch failed: socket hang up');
      }
      return response;
    };
    const before = facilitator.settled.length;
    const client = createClient({ baseUrl: base, wallet: account, fetch: lossy });
    const body = await client.bundle(twoQueries);
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    expect(client.spent()).toBe(1000n);
    expect(facilitator.settled.length).toBe(before + 1);
  });

  it('does not repeat a write whose response was lost', async () => {
    let calls = 0;
    const lossy: typeof fetch = async (input, init) => {
      calls++;
      await (await fetch(input, init)).arrayBuffer();
      throw new TypeError('fetch failed: socket hang up');
    };
    const client = createClient({ baseUrl: base, fetch: lossy });
    const error = await client.sessions.start({ label: 'lost' }).catch((e) => e);
    expect(error).toMatchObject({ name: 'SvcNetworkError' });
    expect(calls).toBe(1);
  });

  it('buys a day pass, then pays bundles with it and signs nothing more', async () => {
    const client = createClient({ baseUrl: base, wallet: wallet() });
    const pass = await client.passes.buy('day');
    expect(pass.pass).toMatch(/^svc-pass_/);
    expect(pass.kind).toBe('day');
    expect(client.passToken()).toBe(pass.pass);
    expect(client.spent()).toBe(990_000n);
    const body = await client.bundle(twoQueries);
    expect(body.payment).toMatchObject({ method: 'pass' });
    expect(client.spent()).toBe(990_000n);

    const reuse = createClient({ baseUrl: base, passToken: pass.pass });
    expect((await reuse.bundle(twoQueries)).payment).toMatchObject({ method: 'pass' });
  });

  it('a week pass is above the default cap of $1', async () => {
    const error = await createClient({ baseUrl: base, wallet: wallet() })
      .passes.buy('week')
      .catch((e) => e);
    expect(error).toMatchObject({ name: 'SpendCapError', cap: 'per_call', amount: 4_990_000n });
  });

  it('a paid backtest gets more than the free 100 candles and is charged 5000', async () => {
    const nowS = Date.UTC(2026, 10, 22, 12) / 1000; // the end of the simulator's recorded candles
    const client = createClient({ baseUrl: base, wallet: wallet() });
    const query = { type: 'crypto-price' as const, q: 'SOL', from: nowS - 30 * 86_400, to: nowS };
    const free = await client.backtest(query);
    expect(free).toMatchObject({ paid: false, count: 100 });
    const paid = await client.backtest(query, { paid: true });
    expect(paid.paid).toBe(true);
    expect(paid.count).toBeGreaterThan(100);
    expect(client.spent()).toBe(5000n);
  });
  it('a paid agent-context returns the paid plan for 5000; without a wallet the paid tier is a PaymentRequiredError', async () => {
    const client = createClient({ baseUrl: base, wallet: wallet() });
    expect(await client.agentContext({ goal: 'should I buy bitcoin?' })).toMatchObject({ paid: false });
    expect(await client.agentContext({ goal: 'should I buy bitcoin?' }, { paid: true })).toMatchObject({
      paid: true,
      goal_category: 'buy_crypto',
    });
    expect(client.spent()).toBe(5000n);
    const error = await createClient({ baseUrl: base })
      .agentContext({ goal: 'should I buy bitcoin?' }, { paid: true })
      .catch((e) => e);
    expect(error).toMatchObject({ name: 'PaymentRequiredError', amount: 5000n });
  });
});

describe('SDK receipts', () => {
  it('verifies a signed answer offline with the pinned key, and rejects a tampered one', async () => {
    const client = createClient({ baseUrl: base });
    const body = (await client.query({ type: 'crypto-price', q: 'bitcoin' })) as Record<string, unknown>;
    expect(await client.verifyReceipt(body)).toMatchObject({ valid: true, checked: 'signature+response+request' });
    expect(await client.verifyReceipt(body._receipt)).toMatchObject({ valid: true, checked: 'signature' });

    const jwk = await client.receiptKey();
    expect(jwk.kid).toBe(t.deps.signingKey.kid);
    expect(await verifyReceipt({ ...body, q: 'ethereum' }, jwk)).toEqual({ valid: false, reason: 'response_mismatch' });
    const receipt = body._receipt as Record<string, unknown>;
    expect(await verifyReceipt({ ...receipt, as_of: (receipt.as_of as number) + 1 }, jwk)).toEqual({
      valid: false,
      reason: 'bad_signature',
    });
    expect(await verifyReceipt(body, { ...jwk, kid: 'another' })).toEqual({ valid: false, reason: 'unknown_kid' });
    expect(await client.verifyReceiptRemote(receipt, body)).toMatchObject({ valid: true });
  });

  it('refuses a service key that is not the pinned kid', async () => {
    const error = await createClient({ baseUrl: base, receiptKid: 'pinned-elsewhere' })
      .receiptKey()
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'receipt_key_changed' });
  });

  it('keeps the since cursor while polling: the second answer is unchanged and not yielded', async () => {
    const client = createClient({ baseUrl: base });
    const controller = new AbortController();
    const seen: unknown[] = [];
    for await (const answer of client.poll({ type: 'crypto-price', q: 'bitcoin' }, { intervalMs: 20, signal: controller.signal })) {
      seen.push(answer);
      setTimeout(() => controller.abort(), 150);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ ok: true, type: 'crypto-price' });
  });
});

describe('SDK credentials it keeps', () => {
  it('remembers the agent_key from the first claim and sends it for the next writes', async () => {
    const client = createClient({ baseUrl: base });
    const agent_id = `test:sdk-${Date.now()}`;
    const claim = {
      agent_id,
      kind: 'sdk-test',
      predicted_p: 0.7,
      payload: {},
      outcome_resolver: { type: 'manual', config: {} },
      ttl_hours: 24,
    } as const;
    const first = await client.calib.recordClaim(claim);
    expect(first.agent_key).toBeTruthy();
    const second = await client.calib.recordClaim(claim);
    expect(second.agent_key).toBeUndefined();
    expect(await client.calib.recordOutcome({ claim_id: second.claim_id, outcome: 1 })).toMatchObject({ outcome: 1 });
    const stranger = await createClient({ baseUrl: base })
      .calib.recordClaim(claim as never)
      .catch((e) => e);
    expect(stranger).toMatchObject({ status: 401 });
  });

  it('reads the other public routes through typed methods', async () => {
    const client = createClient({ baseUrl: base });
    const agent_id = `test:sdk-reader-${Date.now()}`;
    expect(await client.calib.calibrateP({ agent_id, kind: 'k', predicted_p: 0.42 })).toMatchObject({
      calibrated_p: 0.42,
      low_confidence: true,
    });
    expect((await client.trainingStation.leaderboard()).entries).toBeInstanceOf(Array);
    expect((await client.cams()).count).toBe(4);
    expect((await client.entity.list({ type: 'crypto', limit: 2 })).entities).toHaveLength(2);
  });

  it('starts a session, posts with its token and watches the events until the end', async () => {
    const client = createClient({ baseUrl: base });
    const session = await client.sessions.start({ label: 'sdk test' });
    await client.sessions.event({ session_id: session.session_id, kind: 'thought', text: 'first' });
    await client.sessions.event({ session_id: session.session_id, kind: 'log', text: 'second' });
    const events: { kind: string; id?: number; data: unknown }[] = [];
    const plain: string[] = [];
    const watching = (async () => {
      for await (const e of client.sessions.watch(session.session_id, { state: true })) events.push(e);
    })();
    const watchingPlain = (async () => {
      for await (const e of client.sessions.watch(session.session_id)) plain.push(e.kind);
    })();
    // Both watchers have replayed the events so far, so both are attached when the session ends.
    await expect.poll(() => events.length >= 3 && plain.length >= 2).toBe(true);
    await client.sessions.end(session.session_id);
    await Promise.all([watching, watchingPlain]);
    expect(events.map((e) => e.kind)).toEqual(['state', 'thought', 'log', 'end']);
    expect(plain).toEqual(['thought', 'log']);
    expect(events[1]).toMatchObject({ id: 1, data: { text: 'first', seq: 1 } });
  });
});
