import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyObject } from 'node:crypto';
import { CalibrationService } from '../../src/calib/service.js';
import { CalibrationRepo } from '../../src/store/repos/calibration.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { lineVerifies, publicKeyOf, verifiesOffline } from '../helpers/offline-verify.js';

const DAY_MS = 86_400_000;
const claimBody = (agent_id: string, predicted_p: number, resolver = 'manual') => ({
  agent_id,
  kind: 'btc-up',
  predicted_p,
  payload: { note: 'x' },
  outcome_resolver:
    resolver === 'manual' ? { type: 'manual', config: {} } : { type: 'price_above', config: { coin: 'bitcoin', threshold_usd: 50000 } },
  ttl_hours: 24,
});
describe.each(STORE_BACKENDS)('calib-pro on %s', (backend) => {
  let t: TestApp;
  let calib: CalibrationService;
  let key: KeyObject;
  const nowS = () => Math.floor(t.clock.now() / 1000);

  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres', env: { SVC_PAY_TO: PAY_TO } });
    calib = new CalibrationService(new CalibrationRepo(t.deps.store.db), t.deps.clock, t.deps.sources);
    key = publicKeyOf((await t.app.inject('/.well-known/svc-receipt-pubkey.json')).json());
  });
  afterAll(() => t.close());

  const keys = new Map<string, string>();
  async function recordClaim(body: ReturnType<typeof claimBody>, headers: Record<string, string> = {}, product = '') {
    const auth = keys.has(body.agent_id) ? { authorization: `Bearer ${keys.get(body.agent_id)}` } : {};
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/calib/record_claim${product && `?product=${product}`}`,
      payload: body,
      headers: { ...auth, ...headers },
    });
    if (res.json().agent_key) keys.set(body.agent_id, res.json().agent_key);
    return res;
  }
  const payFor = async (amount = 2000n) => ({ 'x-payment': await paymentHeader({ nowS: nowS(), amount }) });
  const card = async (agent_id: string) => (await t.app.inject({ url: '/api/v1/calib/agent_card', query: { agent_id } })).json();

  it('leaves the free path as it was: no payment asked, product free, cards count every outcome', async () => {
    const res = await recordClaim(claimBody('test:free', 0.7));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ product: 'free', pro_until: null, low_confidence: true });
    const { claim_id } = res.json();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_outcome',
      payload: { claim_id, outcome: 1 },
      headers: { authorization: `Bearer ${keys.get('test:free')}` },
    });
    expect(await card('test:free')).toMatchObject({
      product: 'free',
      outcomes: 'all',
      self_reported_outcomes: 1,
      kinds: [{ resolved: 1, self_reported_outcomes: 1 }],
    });
    expect(await t.deps.store.db.selectFrom('payment_authorizations').selectAll().execute()).toEqual([]);
    const history = await t.app.inject({ url: '/api/v1/calib/pro/history', query: { agent_id: 'test:free', kind: 'btc-up' } });
    expect(history.statusCode).toBe(403);
    expect(history.json().details.reason).toBe('calib_pro_required');
  });

  it('asks for 0.002 USDC with an x402 challenge, takes a real signed payment and keeps the agent on calib-pro for 30 days', async () => {
    // A paid answer is stored for retries, so it must not carry a new agent's key: a new agent pays from its second claim on.
    const headers = await payFor();
    const first = await recordClaim(claimBody('test:pro', 0.8), headers, 'calib-pro');
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ error: 'bad_request', details: { field: 'product' } });
    expect(first.json().agent_key).toBeUndefined();
    expect(await t.deps.store.db.selectFrom('payment_authorizations').selectAll().execute()).toEqual([]);
    await recordClaim(claimBody('test:pro', 0.8));
    const challenge = await recordClaim(claimBody('test:pro', 0.8), {}, 'calib-pro');
    expect(challenge.statusCode).toBe(402);
    expect(challenge.json()).toMatchObject({
      error: 'payment_required',
      accepts: [{ maxAmountRequired: '2000', resource: 'http://svc.test/api/v1/calib/record_claim' }],
    });
    expect((await recordClaim(claimBody('test:pro', 0.8), await payFor(1000n), 'calib-pro')).json().reason).toBe(
      'invalid_exact_evm_payload_authorization_value',
    );
    // The released authorization pays now.
    const paid = await recordClaim(claimBody('test:pro', 0.8), headers, 'calib-pro');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ product: 'calib-pro', pro_until: nowS() + 30 * 86_400 });
    expect(paid.headers['x-payment-status']).toBe('unsettled');
    const [authorization] = await t.deps.store.db
      .selectFrom('payment_authorizations')
      .selectAll()
      .where('resource', '=', 'http://svc.test/api/v1/calib/record_claim')
      .execute();
    expect(authorization).toMatchObject({ amount: '2000', status: 'unsettled' });
    expect(await t.deps.store.db.selectFrom('calib_pro_claims').selectAll().execute()).toMatchObject([
      { claim_id: paid.json().claim_id, agent_id: 'test:pro', method: 'x402', payment_ref: authorization!.auth_key },
    ]);
    // The payer's retry after a lost answer gets the same answer (same claim), and nothing more is recorded.
    const retry = await recordClaim(claimBody('test:pro', 0.8), headers, 'calib-pro');
    expect(retry.payload).toBe(paid.payload);
    expect(await t.deps.store.db.selectFrom('calib_claims').select('claim_id').where('agent_id', '=', 'test:pro').execute()).toHaveLength(
      2,
    );
    // Its unpaid claims keep the status it paid for; 30 days later it has lapsed.
    expect((await recordClaim(claimBody('test:pro', 0.6))).json()).toMatchObject({ product: 'calib-pro' });
    t.clock.advance(30 * DAY_MS + 1000);
    expect((await recordClaim(claimBody('test:pro', 0.6))).json()).toMatchObject({ product: 'free' });
    expect((await recordClaim(claimBody('test:pro', 0.6), await payFor(), 'calib-pro')).json()).toMatchObject({
      product: 'calib-pro',
      pro_until: nowS() + 30 * 86_400,
    });
  });

  it('takes a day pass in X-Svc-Pass instead of a payment', async () => {
    const pass = await t.app.inject({ method: 'POST', url: '/api/v1/pass/day', headers: await payFor(990_000n) });
    expect(pass.statusCode).toBe(200);
    await recordClaim(claimBody('test:pass', 0.5));
    const covered = await recordClaim(claimBody('test:pass', 0.5), { 'x-svc-pass': pass.json().pass }, 'calib-pro');
    expect(covered.json()).toMatchObject({ product: 'calib-pro' });
    expect((await recordClaim(claimBody('test:pass', 0.5), { 'x-svc-pass': 'svc-pass_unknown' }, 'calib-pro')).json().reason).toBe(
      'pass_unknown',
    );
  });

  it("shows only verified outcomes on a pro agent's card, which verifies offline", async () => {
    const agent = 'test:verified';
    await recordClaim(claimBody(agent, 0.8));
    await recordClaim(claimBody(agent, 0.8), await payFor(), 'calib-pro');
    for (const outcome of [1, 1, 0] as const) {
      const { claim_id } = (await recordClaim(claimBody(agent, 0.8, 'price_above'))).json();
      await calib.recordOutcome(claim_id, outcome, { checked: 'by svc' }, 'verified');
    }
    for (let i = 0; i < 2; i++) {
      const { claim_id } = (await recordClaim(claimBody(agent, 0.9))).json();
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/calib/record_outcome',
        payload: { claim_id, outcome: 0 },
        headers: { authorization: `Bearer ${keys.get(agent)}` },
      });
    }
    const body = await card(agent);
    // Verified only: three outcomes at 0.8, two successes → ECE |2/3 − 0.8|, Brier (0.04 + 0.04 + 0.64)/3.
    expect(body).toMatchObject({
      product: 'calib-pro',
      outcomes: 'verified_only',
      claims_total: 7,
      verified_outcomes: 3,
      self_reported_outcomes: 2,
    });
    expect(body.kinds[0]).toMatchObject({ kind: 'btc-up', claims: 7, resolved: 3, verified_outcomes: 3, self_reported_outcomes: 2 });
    expect(body.kinds[0].ece).toBeCloseTo(0.8 - 2 / 3, 12);
    expect(body.kinds[0].brier).toBeCloseTo(0.24, 12);
    expect(verifiesOffline(key, body)).toBe(true);
    expect(verifiesOffline(key, { ...body, kinds: [{ ...body.kinds[0], ece: 0 }] })).toBe(false);
    // The same agent's plain curve still counts all five.
    expect((await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agent, kind: 'btc-up' } })).json().resolved_claims).toBe(5);
  });

  it('gives per-kind history over the last 30, 90 and 365 days', async () => {
    const agent = 'test:history';
    await recordClaim(claimBody(agent, 0.7));
    await recordClaim(claimBody(agent, 0.7), await payFor(), 'calib-pro');
    const resolveAt = async (daysAgo: number, outcome: 0 | 1) => {
      const { claim_id } = (await recordClaim(claimBody(agent, 0.7, 'price_above'))).json();
      const now = t.clock.now();
      t.clock.set(now - daysAgo * DAY_MS);
      await calib.recordOutcome(claim_id, outcome, {}, 'verified');
      t.clock.set(now);
    };
    await resolveAt(200, 0);
    await resolveAt(60, 1);
    await resolveAt(10, 1);
    await resolveAt(1, 0);
    const res = await t.app.inject({ url: '/api/v1/calib/pro/history', query: { agent_id: agent, kind: 'btc-up' } });
    expect(res.statusCode).toBe(200);
    const windows = res.json().windows;
    expect(windows.map((w: { window: string; resolved: number }) => [w.window, w.resolved])).toEqual([
      ['30d', 2],
      ['90d', 3],
      ['365d', 4],
    ]);
    expect(windows[0]).toMatchObject({ verified_outcomes: 2, self_reported_outcomes: 0, from: nowS() - 30 * 86_400 });
    expect(windows[0].brier).toBeCloseTo((0.09 + 0.49) / 2, 12);
    expect(windows[1].ece).toBeCloseTo(Math.abs(2 / 3 - 0.7), 12);
    expect(verifiesOffline(key, res.json())).toBe(true);
  });

  it('exports the whole history as JSON Lines, each line verifiable on its own, to the agent only', async () => {
    const agent = 'test:verified';
    const res = await t.app.inject({
      url: '/api/v1/calib/pro/export',
      query: { agent_id: agent },
      headers: { authorization: `Bearer ${keys.get(agent)}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.payload
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(7);
    expect(lines.filter((l) => l.paid_with === 'x402')).toMatchObject([
      { v: 1, agent_id: agent, status: 'unresolved', outcome_resolver: { type: 'manual' } },
    ]);
    expect(lines.filter((l) => l.outcome_source === 'verified')).toHaveLength(3);
    expect(lines.every((l) => lineVerifies(key, l))).toBe(true);
    const resolved = lines.find((l) => l.status === 'resolved');
    expect(lineVerifies(key, { ...resolved, outcome: 1 - resolved.outcome })).toBe(false);
    expect((await t.app.inject({ url: '/api/v1/calib/pro/export', query: { agent_id: agent } })).statusCode).toBe(401);
    const other = await t.app.inject({
      url: '/api/v1/calib/pro/export',
      query: { agent_id: agent },
      headers: { authorization: `Bearer ${keys.get('test:free')}` },
    });
    expect(other.statusCode).toBe(403);
    const notPro = await t.app.inject({
      url: '/api/v1/calib/pro/export',
      query: { agent_id: 'test:free' },
      headers: { authorization: `Bearer ${keys.get('test:free')}` },
    });
    expect(notPro.json().details.reason).toBe('calib_pro_required');
  });
});

describe('calib-pro rate limits', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await startTestApp({ env: { SVC_PAY_TO: PAY_TO, SVC_RATE_ANON_PER_MIN: '6', SVC_RATE_PRO_PER_MIN: '50' } });
  });
  afterAll(() => r.close());

  it("counts a calib-pro agent's requests against its own pro bucket, not the per-IP anonymous one", async () => {
    const claim = (agent_id: string, headers: Record<string, string> = {}, product = '') =>
      r.app.inject({
        method: 'POST',
        url: `/api/v1/calib/record_claim${product && `?product=${product}`}`,
        payload: claimBody(agent_id, 0.5),
        headers,
      });
    const payment = await paymentHeader({ nowS: Math.floor(r.clock.now() / 1000), amount: 2000n });
    const proKey = (await claim('test:fast')).json().agent_key;
    expect((await claim('test:fast', { authorization: `Bearer ${proKey}`, 'x-payment': payment }, 'calib-pro')).statusCode).toBe(200);
    const freeKey = (await claim('test:slow')).json().agent_key;
    const asPro = await claim('test:fast', { authorization: `Bearer ${proKey}` });
    expect(asPro.headers['ratelimit-policy']).toBe('"pro";q=50;w=60');
    const asFree = await claim('test:slow', { authorization: `Bearer ${freeKey}` });
    expect(asFree.headers['ratelimit-policy']).toBe('"anonymous";q=6;w=60');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await claim('test:slow', { authorization: `Bearer ${freeKey}` })).statusCode);
    expect(statuses).toContain(429);
    expect((await claim('test:fast', { authorization: `Bearer ${proKey}` })).statusCode).toBe(200);
  });
});
