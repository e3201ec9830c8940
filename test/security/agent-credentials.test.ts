import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESERVED_NAMESPACES } from '../../src/calib/namespaces.js';
import { CalibrationService } from '../../src/calib/service.js';
import { CalibrationRepo } from '../../src/store/repos/calibration.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';

const CLAIM = { kind: 'btc-up', predicted_p: 0.7, payload: { note: 'x' }, outcome_resolver: { type: 'manual', config: {} }, ttl_hours: 24 };
const KEY = /^svc-ak_[A-Za-z0-9_-]{32}$/;

describe.each(STORE_BACKENDS)('agent credentials on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres' });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, key?: string) =>
    t.app.inject({ method: 'POST', url, payload, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  const claim = (agent_id: string, key?: string, extra: object = {}) =>
    post('/api/v1/calib/record_claim', { agent_id, ...CLAIM, ...extra }, key);
  const claimsOf = async (agentId: string) =>
    (await t.deps.store.db.selectFrom('calib_claims').select('claim_id').where('agent_id', '=', agentId).execute()).length;
  const credentialOf = (agentId: string) =>
    t.deps.store.db.selectFrom('agent_credentials').selectAll().where('agent_id', '=', agentId).executeTakeFirst();

  /** A new agent and its key, from its first claim. */
  async function newAgent(name: string): Promise<{ agentId: string; key: string; claimId: string }> {
    const agentId = `test:${name}-${backend}`;
    const first = (await claim(agentId)).json();
    return { agentId, key: first.agent_key, claimId: first.claim_id };
  }

  function expectHouseError(res: { statusCode: number; json(): Record<string, unknown> }, status: number, error: string) {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error, message: expect.any(String), details: expect.any(Object), request_id: expect.any(String) });
  }

  it('the first claim creates the agent and shows its key once, stored only as a SHA-256 hash', async () => {
    const agentId = `test:first-${backend}`;
    const first = await claim(agentId);
    expect(first.statusCode).toBe(200);
    const { agent_key, claim_id, _receipt } = first.json();
    expect(agent_key).toMatch(KEY);
    expect(_receipt.v).toBe(1);
    const stored = await credentialOf(agentId);
    expect(stored).toMatchObject({
      agent_id: agentId,
      key_hash: createHash('sha256').update(agent_key).digest('hex'),
      public_jwk: null,
      created_at: t.clock.now(),
    });
    expect(JSON.stringify(await t.deps.store.db.selectFrom('agent_credentials').selectAll().execute())).not.toContain(agent_key);

    const second = await claim(agentId, agent_key);
    expect(second.statusCode).toBe(200);
    expect(second.json().agent_key).toBeUndefined();
    expect(second.json().claim_id).not.toBe(claim_id);
    expect(await claimsOf(agentId)).toBe(2);
  });

  it('a later claim without a key is 401, with a wrong one 403, and stores nothing', async () => {
    const { agentId } = await newAgent('later');
    const other = await newAgent('other');
    expectHouseError(await claim(agentId), 401, 'unauthorized');
    expectHouseError(await claim(agentId, other.key), 403, 'forbidden');
    expectHouseError(await claim(agentId, 'svc-ak_' + 'A'.repeat(32)), 403, 'forbidden');
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_claim',
      payload: { agent_id: agentId, ...CLAIM },
      headers: { authorization: 'Basic abc' },
    });
    expectHouseError(malformed, 401, 'unauthorized');
    expect(await claimsOf(agentId)).toBe(1);
  });

  it("only the claim's agent records its outcome, stored and counted as self-reported", async () => {
    const { agentId, key, claimId } = await newAgent('outcome');
    const other = await newAgent('intruder');
    expectHouseError(await post('/api/v1/calib/record_outcome', { claim_id: claimId, outcome: 1 }), 401, 'unauthorized');
    expectHouseError(await post('/api/v1/calib/record_outcome', { claim_id: claimId, outcome: 1 }, other.key), 403, 'forbidden');
    const unknown = await post('/api/v1/calib/record_outcome', { claim_id: 'svc-claim:doesnotexist', outcome: 1 }, key);
    expectHouseError(unknown, 404, 'not_found');
    const ok = await post('/api/v1/calib/record_outcome', { claim_id: claimId, outcome: 1 }, key);
    expect(ok.json()).toMatchObject({ claim_id: claimId, status: 'resolved', outcome: 1, outcome_source: 'self_reported' });
    const row = await t.deps.store.db
      .selectFrom('calib_claims')
      .select(['status', 'outcome_source'])
      .where('claim_id', '=', claimId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'resolved', outcome_source: 'self_reported' });
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agentId, kind: 'btc-up' } })).json();
    expect(curve).toMatchObject({ resolved_claims: 1, verified_outcomes: 0, self_reported_outcomes: 1 });
  });

  it('price claims are resolved by svc as verified; one the agent grades itself counts as self-reported', async () => {
    const { agentId, key } = await newAgent('prices');
    const price = { ttl_hours: 1, outcome_resolver: { type: 'price_above', config: { coin: 'bitcoin', threshold_usd: 50_000 } } };
    const priced = (await claim(agentId, key, price)).json();
    const selfGraded = await post('/api/v1/calib/record_outcome', { claim_id: priced.claim_id, outcome: 0 }, key);
    expect(selfGraded.json()).toMatchObject({ status: 'resolved', outcome_source: 'self_reported' });
    await claim(agentId, key, price); // left to svc's resolver
    const manual = (await claim(agentId, key)).json();
    await post('/api/v1/calib/record_outcome', { claim_id: manual.claim_id, outcome: 0 }, key);
    t.clock.advance(3600_000);
    await t.app.scheduler.tick();
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agentId, kind: 'btc-up' } })).json();
    expect(curve).toMatchObject({ total_claims: 4, resolved_claims: 3, verified_outcomes: 1, self_reported_outcomes: 2 });
    const card = (await t.app.inject({ url: '/api/v1/calib/agent_card', query: { agent_id: agentId } })).json();
    expect(card).toMatchObject({
      claims_total: 4,
      verified_outcomes: 1,
      self_reported_outcomes: 2,
      kinds: [{ kind: 'btc-up', claims: 4, resolved: 3, verified_outcomes: 1, self_reported_outcomes: 2 }],
    });
  });

  it('reserves the namespaces svc writes itself, whatever their case, on every write route', async () => {
    for (const namespace of [...RESERVED_NAMESPACES, 'Arena', 'OLYMPICS']) {
      const agentId = `${namespace}:forged-${backend}`;
      expectHouseError(await claim(agentId), 403, 'forbidden');
      expectHouseError(await post('/api/v1/training-station/register', { agent_id: agentId, name: 'fake' }), 403, 'forbidden');
      expect(await claimsOf(agentId)).toBe(0);
      expect(await credentialOf(agentId)).toBeUndefined();
    }
    // An arena claim recorded by svc itself cannot be resolved from outside, not even by a key holder.
    const calib = new CalibrationService(new CalibrationRepo(t.deps.store.db), t.deps.clock, t.deps.sources);
    const arenaClaim = await calib.recordClaim({
      agent_id: 'arena:rsi2_mean_reversion:BTC',
      ...CLAIM,
      outcome_resolver: { type: 'manual', config: {} },
    });
    const { key } = await newAgent('forger');
    expectHouseError(await post('/api/v1/calib/record_outcome', { claim_id: arenaClaim.claim_id, outcome: 1 }, key), 403, 'forbidden');
    expect(
      (
        await t.deps.store.db
          .selectFrom('calib_claims')
          .select('status')
          .where('claim_id', '=', arenaClaim.claim_id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('unresolved');
  });

  it('reads stay public', async () => {
    const { agentId } = await newAgent('reader');
    expect((await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agentId, kind: 'btc-up' } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/calib/agent_card', query: { agent_id: agentId } })).statusCode).toBe(200);
    expect((await post('/api/v1/calib/calibrate_p', { agent_id: agentId, kind: 'btc-up', predicted_p: 0.5 })).statusCode).toBe(200);
    expect((await t.app.inject('/api/v1/training-station/agents')).statusCode).toBe(200);
    expect((await t.app.inject('/api/v1/training-station/leaderboard')).statusCode).toBe(200);
    const doc = (await t.app.inject('/openapi.json')).json();
    for (const [path, method] of [
      ['/api/v1/calib/curve', 'get'],
      ['/api/v1/calib/agent_card', 'get'],
      ['/api/v1/calib/calibrate_p', 'post'],
      ['/api/v1/training-station/agents', 'get'],
      ['/api/v1/training-station/leaderboard', 'get'],
      ['/api/v1/arena/track-record', 'get'],
    ] as const) {
      expect(doc.paths[path][method].description, path).toContain('Public: no credentials needed.');
    }
  });

  it('training-station register: the first creates the agent, later updates need its key', async () => {
    const agentId = `acme:profile-${backend}`;
    const first = (await post('/api/v1/training-station/register', { agent_id: agentId, name: 'Acme' })).json();
    expect(first).toMatchObject({ agent_id: agentId, name: 'Acme', agent_key: expect.stringMatching(KEY) });
    expectHouseError(await post('/api/v1/training-station/register', { agent_id: agentId, name: 'Hijacked' }), 401, 'unauthorized');
    expectHouseError(
      await post('/api/v1/training-station/register', { agent_id: agentId, name: 'Hijacked' }, 'svc-ak_' + 'B'.repeat(32)),
      403,
      'forbidden',
    );
    const updated = await post('/api/v1/training-station/register', { agent_id: agentId, name: 'Acme 2' }, first.agent_key);
    expect(updated.json()).toMatchObject({ agent_id: agentId, name: 'Acme 2', registered_at: first.registered_at });
    expect(updated.json().agent_key).toBeUndefined();
    // The key from register is the agent's key for claims too, and a claim-created agent needs its key to register.
    expect((await claim(agentId, first.agent_key)).statusCode).toBe(200);
    const { agentId: claimer, key } = await newAgent('claimer');
    expectHouseError(await post('/api/v1/training-station/register', { agent_id: claimer, name: 'Claimer' }), 401, 'unauthorized');
    expect((await post('/api/v1/training-station/register', { agent_id: claimer, name: 'Claimer' }, key)).json()).toMatchObject({
      name: 'Claimer',
      claims: 1,
    });
  });

  it('rotation returns a new key once; the old one stops working', async () => {
    const { agentId, key } = await newAgent('rotate');
    expectHouseError(await post('/api/v1/calib/rotate_key', { agent_id: agentId }), 401, 'unauthorized');
    const rotated = (await post('/api/v1/calib/rotate_key', { agent_id: agentId }, key)).json();
    expect(rotated).toEqual({ agent_id: agentId, agent_key: expect.stringMatching(KEY), rotated_at: t.clock.now() });
    expect(rotated.agent_key).not.toBe(key);
    expectHouseError(await claim(agentId, key), 403, 'forbidden');
    expectHouseError(await post('/api/v1/calib/rotate_key', { agent_id: agentId }, key), 403, 'forbidden');
    expect((await claim(agentId, rotated.agent_key)).statusCode).toBe(200);
  });

  it('of concurrent first writes for one agent exactly one gets the key', async () => {
    const agentId = `test:race-${backend}`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => claim(agentId)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401]);
    const winner = answers.find((a) => a.statusCode === 200)!.json();
    expect((await credentialOf(agentId))!.key_hash).toBe(createHash('sha256').update(winner.agent_key).digest('hex'));
    expect(await claimsOf(agentId)).toBe(1);
  });

  it('a first write whose answer cannot be built stores neither the claim nor the agent', async () => {
    const agentId = `test:atomic-${backend}`;
    // 1e400 parses as Infinity, which canonical JSON (the receipt's request hash) cannot represent.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_claim',
      headers: { 'content-type': 'application/json' },
      payload: `{"agent_id":"${agentId}","kind":"k","predicted_p":0.5,"payload":{"x":1e400},"outcome_resolver":{"type":"manual","config":{}},"ttl_hours":1}`,
    });
    // The status is the JSON body check's business (400 invalid_json once it runs before handlers); what matters here is what was stored.
    expect(res.statusCode).not.toBe(200);
    expect(await claimsOf(agentId)).toBe(0);
    expect(await credentialOf(agentId)).toBeUndefined();
    expect((await claim(agentId)).json().agent_key).toMatch(KEY);
  });

  describe('Ed25519 signatures instead of the key', () => {
    let agent: { agentId: string; key: string };
    let privateKey: KeyObject;
    beforeAll(async () => {
      agent = await newAgent('signer');
      const pair = generateKeyPairSync('ed25519');
      privateKey = pair.privateKey;
      const jwk = pair.publicKey.export({ format: 'jwk' });
      const registered = await post('/api/v1/calib/public_key', { agent_id: agent.agentId, public_jwk: jwk }, agent.key);
      expect(registered.json()).toEqual({ agent_id: agent.agentId, public_jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } });
    });

    /** The documented signed string: svc-agent-v1, method, path+query, agent_id, timestamp, hex SHA-256 of the body. */
    function signedRequest(
      body: string,
      { timestamp = Math.floor(t.clock.now() / 1000), url = '/api/v1/calib/record_claim', signedBody = body } = {},
    ) {
      const message = [
        'svc-agent-v1',
        'POST',
        url,
        agent.agentId,
        String(timestamp),
        createHash('sha256').update(signedBody).digest('hex'),
      ].join('\n');
      const signature = sign(null, Buffer.from(message), privateKey).toString('base64url');
      return {
        method: 'POST' as const,
        url,
        payload: body,
        headers: { 'content-type': 'application/json', 'x-svc-agent-timestamp': String(timestamp), 'x-svc-agent-signature': signature },
      };
    }
    const body = (note: string) => JSON.stringify({ agent_id: agent.agentId, ...CLAIM, payload: { note } });

    it('accepts a signed claim once; a replay is 403', async () => {
      const request = signedRequest(body('signed'));
      const first = await t.app.inject(request);
      expect(first.statusCode).toBe(200);
      expect(first.json().agent_key).toBeUndefined();
      const replay = await t.app.inject(request);
      expectHouseError(replay, 403, 'forbidden');
      expect(replay.json().details.reason).toBe('signature_replayed');
    });

    it("signs outcomes too: the agent_id in the signed string is the claim's agent", async () => {
      const { claim_id } = (await claim(agent.agentId, agent.key)).json();
      const outcome = await t.app.inject(signedRequest(JSON.stringify({ claim_id, outcome: 1 }), { url: '/api/v1/calib/record_outcome' }));
      expect(outcome.json()).toMatchObject({ claim_id, status: 'resolved', outcome_source: 'self_reported' });
    });

    it('refuses timestamps outside ±300 s, a tampered body and an unregistered key, storing nothing', async () => {
      const before = await claimsOf(agent.agentId);
      const nowS = Math.floor(t.clock.now() / 1000);
      const stale = await t.app.inject(signedRequest(body('stale'), { timestamp: nowS - 301 }));
      expect(stale.json().details.reason).toBe('timestamp_out_of_window');
      expect((await t.app.inject(signedRequest(body('future'), { timestamp: nowS + 301 }))).json().details.reason).toBe(
        'timestamp_out_of_window',
      );
      expect((await t.app.inject(signedRequest(body('edge'), { timestamp: nowS - 300 }))).statusCode).toBe(200);
      const tampered = await t.app.inject(signedRequest(body('tampered'), { signedBody: body('original') }));
      expectHouseError(tampered, 403, 'forbidden');
      expect(tampered.json().details.reason).toBe('bad_signature');
      expect(await claimsOf(agent.agentId)).toBe(before + 1);

      await post('/api/v1/calib/public_key', { agent_id: agent.agentId, public_jwk: null }, agent.key);
      expect((await t.app.inject(signedRequest(body('unregistered')))).json().details.reason).toBe('no_public_key');
    });

    it('rejects a JWK that is not an Ed25519 public key, naming the field', async () => {
      const bad = async (jwk: object, field: string) => {
        const res = await post('/api/v1/calib/public_key', { agent_id: agent.agentId, public_jwk: jwk }, agent.key);
        expect(res.statusCode, field).toBe(400);
        expect(res.json().details.field, field).toBe(field);
      };
      await bad({ kty: 'RSA', crv: 'Ed25519', x: 'A'.repeat(43) }, 'public_jwk.kty');
      await bad({ kty: 'OKP', crv: 'X25519', x: 'A'.repeat(43) }, 'public_jwk.crv');
      await bad({ kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(44) }, 'public_jwk.x');
    });
  });
});
