import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';

describe.each(STORE_BACKENDS)('calibration ledger on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres' });
  });
  afterAll(() => t.close());

  /** agent_id → the agent_key its first claim returned; later writes send it (test/security covers writes without it). */
  const keys = new Map<string, string>();
  const post = (url: string, payload: object, agentId?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: agentId && keys.has(agentId) ? { authorization: `Bearer ${keys.get(agentId)}` } : {},
    });
  async function claim(agent_id: string, predicted_p: number, extra: object = {}) {
    const res = await post(
      '/api/v1/calib/record_claim',
      {
        agent_id,
        kind: 'btc-up',
        predicted_p,
        payload: { note: 'x' },
        outcome_resolver: { type: 'manual', config: {} },
        ttl_hours: 24,
        ...extra,
      },
      agent_id,
    );
    if (res.statusCode === 200 && res.json().agent_key) keys.set(agent_id, res.json().agent_key);
    return res;
  }
  const outcome = (agentId: string, claim_id: string, value: 0 | 1) =>
    post('/api/v1/calib/record_outcome', { claim_id, outcome: value }, agentId);

  it('records claims and outcomes and reproduces the reference curve over HTTP, signed', async () => {
    const agent = `test:ref-${backend}`;
    const cases: [number, 0 | 1][] = [
      [0.9, 1],
      [0.8, 1],
      [0.7, 0],
      [0.3, 0],
      [0.2, 1],
    ];
    for (const [p, o] of cases) {
      const res = (await claim(agent, p)).json();
      expect(res).toMatchObject({
        claim_id: expect.stringMatching(/^svc-claim:/),
        calibrated_p: p,
        low_confidence: true,
        expected_resolution_at: Math.floor(t.clock.now() / 1000) + 24 * 3600,
      });
      expect(res._receipt.v).toBe(1);
      const resolved = (await outcome(agent, res.claim_id, o)).json();
      expect(resolved).toMatchObject({
        claim_id: res.claim_id,
        status: 'resolved',
        outcome: o,
        calibrated_p: o,
        outcome_source: 'self_reported',
      });
    }
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agent, kind: 'btc-up' } })).json();
    expect(curve.brier).toBeCloseTo(0.254, 10);
    expect(curve.ece).toBeCloseTo(0.42, 10);
    expect(curve).toMatchObject({
      agent_id: agent,
      kind: 'btc-up',
      total_claims: 5,
      resolved_claims: 5,
      verified_outcomes: 0,
      self_reported_outcomes: 5,
    });
    expect(curve.bins).toHaveLength(10);
    const calibrated = (await post('/api/v1/calib/calibrate_p', { agent_id: agent, kind: 'btc-up', predicted_p: 0.85 })).json();
    expect(calibrated).toMatchObject({ calibrated_p: 1, low_confidence: true, sample_count: 1, bin_index: 8 });
    const card = (await t.app.inject({ url: '/api/v1/calib/agent_card', query: { agent_id: agent } })).json();
    expect(card).toMatchObject({
      agent_id: agent,
      claims_total: 5,
      verified_outcomes: 0,
      self_reported_outcomes: 5,
      kinds: [{ kind: 'btc-up', claims: 5, self_reported_outcomes: 5, miscalibration: 'insufficient_data' }],
    });
    expect((await post('/api/v1/receipt/verify', { receipt: card._receipt, response: card })).json()).toMatchObject({ valid: true });
  });

  it('404 for an unknown claim, 409 for a resolved one with no change', async () => {
    const unknown = await post('/api/v1/calib/record_outcome', { claim_id: 'svc-claim:doesnotexist', outcome: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found', message: 'claim not found' });
    const { claim_id } = (await claim('test:twice', 0.6)).json();
    await outcome('test:twice', claim_id, 1);
    const again = await outcome('test:twice', claim_id, 0);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_resolved', message: 'claim already resolved' });
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: 'test:twice', kind: 'btc-up' } })).json();
    expect(curve.bins[5]).toMatchObject({ count: 1, success_count: 1 });
  });

  it('of two concurrent outcomes for one claim exactly one wins', async () => {
    const { claim_id } = (await claim('test:race', 0.4)).json();
    const answers = await Promise.all(([0, 1, 0, 1] as const).map((value) => outcome('test:race', claim_id, value)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: 'test:race', kind: 'btc-up' } })).json();
    expect(curve.resolved_claims).toBe(1);
  });

  it('validates every field by name', async () => {
    const bad = async (override: object, field: string) => {
      const res = await claim('test:v', 0.5, override);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().details.field, field).toBe(field);
    };
    await bad({ agent_id: 'no-namespace' }, 'agent_id');
    await bad({ predicted_p: 1.2 }, 'predicted_p');
    await bad({ ttl_hours: 0 }, 'ttl_hours');
    await bad({ ttl_hours: 8761 }, 'ttl_hours');
    await bad({ ttl_hours: 1.5 }, 'ttl_hours');
    await bad({ payload: 'text' }, 'payload');
    await bad({ outcome_resolver: { type: '', config: {} } }, 'outcome_resolver.type');
    await bad({ outcome_resolver: { type: 'price_above', config: { coin: 'bitcoin' } } }, 'outcome_resolver.config.threshold_usd');
    await bad({ kind: '' }, 'kind');
  });

  it('record_outcome resolves a claim svc would resolve: self-reported, and the resolver no longer runs for it', async () => {
    const agent = `test:self-${backend}`;
    const priced = await claim(agent, 0.7, {
      ttl_hours: 1,
      outcome_resolver: { type: 'price_above', config: { coin: 'bitcoin', threshold_usd: 50_000 } },
    });
    expect(priced.json().outcome_resolver).toMatchObject({ type: 'price_above', run_by_svc: true });
    const { claim_id } = priced.json();
    const reported = await outcome(agent, claim_id, 0);
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toMatchObject({
      claim_id,
      status: 'resolved',
      outcome: 0,
      outcome_source: 'self_reported',
      outcome_resolver: { type: 'price_above', run_by_svc: false, note: expect.stringMatching(/no longer runs for this claim/) },
    });
    t.clock.advance(3600_000);
    await t.app.scheduler.tick();
    const row = await t.deps.store.db
      .selectFrom('calib_claims')
      .select(['status', 'outcome', 'outcome_source'])
      .where('claim_id', '=', claim_id)
      .executeTakeFirstOrThrow();
    // The resolver would have answered 1 (bitcoin is above 50,000): the reported 0 stands.
    expect(row).toEqual({ status: 'resolved', outcome: 0, outcome_source: 'self_reported' });
    const again = await outcome(agent, claim_id, 1);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_resolved' });
  });

  it('stores a resolver type svc does not run as given, marked not run; its outcome is self-reported', async () => {
    const agent = `test:oracle-${backend}`;
    const resolver = { type: 'my-oracle', config: { url: 'https://example.com/outcome', any: [1, 2] } };
    const res = await claim(agent, 0.6, { outcome_resolver: resolver });
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome_resolver).toMatchObject({
      type: 'my-oracle',
      run_by_svc: false,
      note: expect.stringMatching(/does not run/),
    });
    const row = await t.deps.store.db
      .selectFrom('calib_claims')
      .select(['resolver_json'])
      .where('claim_id', '=', res.json().claim_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.resolver_json)).toEqual(resolver);
    const resolved = (await outcome(agent, res.json().claim_id, 1)).json();
    expect(resolved).toMatchObject({ status: 'resolved', outcome_source: 'self_reported', outcome_resolver: { run_by_svc: false } });
  });

  it('outcome is the integer 0 or 1: a string or a boolean is a 400 naming the field, and nothing changes', async () => {
    const agent = `test:strict-${backend}`;
    const { claim_id } = (await claim(agent, 0.5)).json();
    for (const value of ['1', true, 1.5, 2, null]) {
      const res = await post('/api/v1/calib/record_outcome', { claim_id, outcome: value }, agent);
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(res.json().details.field, JSON.stringify(value)).toBe('outcome');
    }
    expect((await outcome(agent, claim_id, 1)).json()).toMatchObject({ status: 'resolved', outcome: 1 });
  });

  it('resolves due price claims with crypto-price and expires manual claims past their TTL, leaving the curves alone', async () => {
    const agent = `test:resolver-${backend}`;
    const above = (
      await claim(agent, 0.8, {
        ttl_hours: 1,
        outcome_resolver: { type: 'price_above', config: { coin: 'bitcoin', threshold_usd: 50_000 } },
      })
    ).json();
    const below = (
      await claim(agent, 0.8, {
        ttl_hours: 1,
        outcome_resolver: { type: 'price_below', config: { coin: 'bitcoin', threshold_usd: 50_000 } },
      })
    ).json();
    const manual = (await claim(agent, 0.8, { ttl_hours: 1 })).json();
    t.clock.advance(3600_000);
    await t.app.scheduler.tick();
    const late = await outcome(agent, manual.claim_id, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('claim expired without an outcome');
    const rows = await t.deps.store.db
      .selectFrom('calib_claims')
      .select(['claim_id', 'status', 'outcome', 'outcome_source', 'evidence_json'])
      .where('agent_id', '=', agent)
      .execute();
    const byId = new Map(rows.map((r) => [r.claim_id, r]));
    expect(byId.get(above.claim_id)).toMatchObject({ status: 'resolved', outcome: 1, outcome_source: 'verified' });
    expect(byId.get(below.claim_id)).toMatchObject({ status: 'resolved', outcome: 0, outcome_source: 'verified' });
    expect(JSON.parse(byId.get(above.claim_id)!.evidence_json!)).toMatchObject({ price_usd: 67188.12, source: 'coingecko' });
    expect(byId.get(manual.claim_id)!.status).toBe('expired');
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agent, kind: 'btc-up' } })).json();
    expect(curve).toMatchObject({ total_claims: 3, resolved_claims: 2, verified_outcomes: 2, self_reported_outcomes: 0 });
  });
});
