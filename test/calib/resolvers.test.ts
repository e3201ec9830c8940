import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsTerm, matches } from '../../src/calib/resolvers/event-occurred.js';
import { RESOLVER_TYPES } from '../../src/calib/resolvers/registry.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import type { ClaimRow } from '../../src/store/repos/calibration.js';

/** When the gdelt-events fixture's first item (COP31 … finance deal stalls) was seen. */
const COP31_SEEN_S = 1795342500;

describe('event matching rule', () => {
  it('matches whole words and phrases, case-insensitively after NFKC', () => {
    expect(containsTerm('COP31 climate talks run into final night', 'cop31')).toBe(true);
    expect(containsTerm('COP31 climate talks', 'Climate Talks')).toBe(true);
    expect(containsTerm('ＣＯＰ３１ talks', 'cop31')).toBe(true);
    expect(containsTerm('COP310 talks', 'cop31')).toBe(false);
    expect(containsTerm('microcop31', 'cop31')).toBe(false);
    expect(containsTerm('Verhandlungen gehen in die Verlängerung', 'verlängerung')).toBe(true);
    expect(containsTerm('price (USD) rose', '(usd)')).toBe(true);
  });

  it('finds any term set between separators and never inside a longer word', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    fc.assert(
      fc.property(word, fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (term, before, after) => {
        expect(containsTerm(`${before} ${term.toUpperCase()}, ${after}`, term)).toBe(true);
        expect(containsTerm(`x${term}y`, term)).toBe(false);
      }),
    );
  });

  it('needs every term in the row and a date at or after the claim', () => {
    const row = {
      title: 'Cholera - Sudan',
      summary: 'Cases rose in Khartoum',
      url: 'https://who.int/cholera-yemen',
      source: 'who',
      as_of: 100,
    };
    expect(matches(row, ['cholera', 'khartoum'], 100)).toBe(true);
    expect(matches(row, ['cholera', 'khartoum'], 101)).toBe(false);
    expect(matches(row, ['cholera', 'yemen'], 0)).toBe(false);
    expect(matches(row, ['who'], 0)).toBe(false);
  });
});

describe.each(STORE_BACKENDS)('outcome resolvers over HTTP on %s', (backend) => {
  let t: TestApp;
  let key: string | undefined;
  const agent = `test:resolvers-${backend}`;
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres' });
  });
  afterAll(() => t.close());

  async function claim(outcome_resolver: object, ttl_hours = 1) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_claim',
      headers: key ? { authorization: `Bearer ${key}` } : {},
      payload: { agent_id: agent, kind: 'k', predicted_p: 0.6, payload: {}, outcome_resolver, ttl_hours },
    });
    key ??= res.json().agent_key;
    return res;
  }
  const claimRow = (claimId: string) =>
    t.deps.store.db.selectFrom('calib_claims').selectAll().where('claim_id', '=', claimId).executeTakeFirstOrThrow();

  it('lists every resolver with its rule and config schema in the OpenAPI document', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    const resolver =
      doc.paths['/api/v1/calib/record_claim'].post.requestBody.content['application/json'].schema.properties.outcome_resolver;
    // A free string (spec: `{type: string, config: object}`) whose description names the types svc runs.
    expect(resolver.properties.type).toMatchObject({ type: 'string' });
    expect(resolver.properties.type).not.toHaveProperty('enum');
    for (const type of RESOLVER_TYPES.filter((r) => r !== 'manual')) expect(resolver.properties.type.description).toContain(type);
    for (const type of RESOLVER_TYPES) expect(resolver.description).toContain(`**${type}**`);
    expect(resolver.description).toContain('"required":["type","q","field","threshold"]');
  });

  it('rejects configs that do not fit, naming the field', async () => {
    const bad = async (outcome_resolver: object, field: string) => {
      const res = await claim(outcome_resolver);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().details.field, field).toBe(field);
    };
    await bad({ type: 'value_above', config: { type: 'crypto-price', q: 'bitcoin', threshold: 1 } }, 'outcome_resolver.config.field');
    await bad(
      { type: 'value_above', config: { type: 'no-such-type', q: 'x', field: 'usd', threshold: 1 } },
      'outcome_resolver.config.type',
    );
    await bad(
      { type: 'value_below', config: { type: 'weather', q: 'not a place', field: 'temp_c', threshold: 1 } },
      'outcome_resolver.config.q',
    );
    await bad(
      { type: 'value_below', config: { type: 'crypto-price', q: 'bitcoin', field: 'usd', threshold: 'high' } },
      'outcome_resolver.config.threshold',
    );
    await bad({ type: 'event_occurred', config: { type: 'crypto-price', q: 'bitcoin', terms: ['etf'] } }, 'outcome_resolver.config.type');
    await bad({ type: 'event_occurred', config: { type: 'gdelt-events', q: 'Climate', terms: [] } }, 'outcome_resolver.config.terms');
    await bad({ type: 'price_above', config: { coin: 'bitcoin', threshold_usd: 1, extra: true } }, 'outcome_resolver.config');
    await bad({ type: 'manual', config: { anything: 1 } }, 'outcome_resolver.config');
  });

  it('takes a coin in any form crypto-price takes (id, symbol, entity id), and refuses what names no coin', async () => {
    for (const coin of ['bitcoin', 'BTC', 'svc-ent:cr.bitcoin']) {
      expect((await claim({ type: 'price_above', config: { coin, threshold_usd: 1 } })).statusCode, coin).toBe(200);
    }
    const gainer = { coins: ['BTC', 'ethereum'], baseline_usd: [1, 1], coin: 'svc-ent:cr.bitcoin' };
    expect((await claim({ type: 'top_gainer', config: gainer })).statusCode).toBe(200);
    const twice = await claim({ type: 'top_gainer', config: { ...gainer, coins: ['BTC', 'bitcoin'] } });
    expect(twice.json().details).toMatchObject({ field: 'outcome_resolver.config.coins' });
    const stock = await claim({ type: 'price_below', config: { coin: 'svc-ent:eq.aapl', threshold_usd: 1 } });
    expect(stock.json().details).toMatchObject({ field: 'outcome_resolver.config.coin' });
  });

  it('resolves value_above/value_below on any numeric field, and event_occurred by the documented rule, as verified outcomes', async () => {
    t.clock.set((COP31_SEEN_S - 600) * 1000);
    const eth = { type: 'crypto-price', q: 'bitcoin,ethereum', field: 'usd', where: { field: 'coin', equals: 'ethereum' } };
    const above = (await claim({ type: 'value_above', config: { ...eth, threshold: 3500 } })).json();
    const below = (await claim({ type: 'value_below', config: { ...eth, threshold: 3500 } })).json();
    const happened = (
      await claim({ type: 'event_occurred', config: { type: 'gdelt-events', q: 'Climate', terms: ['COP31', 'finance deal'] } })
    ).json();
    const didNot = (
      await claim({ type: 'event_occurred', config: { type: 'gdelt-events', q: 'Climate', terms: ['COP31', 'pizza'] } })
    ).json();
    t.clock.set((COP31_SEEN_S + 1800) * 1000);
    const tooLate = (
      await claim({ type: 'event_occurred', config: { type: 'gdelt-events', q: 'Climate', terms: ['COP31', 'finance deal'] } })
    ).json();
    t.clock.set((COP31_SEEN_S + 1800 + 3600) * 1000);
    await t.app.scheduler.tick();
    const rows = await Promise.all([above, below, happened, didNot, tooLate].map((c) => claimRow(c.claim_id)));
    const [a, , h, d] = rows as [ClaimRow, ClaimRow, ClaimRow, ClaimRow, ClaimRow];
    expect(rows.map((r) => [r.status, r.outcome, r.outcome_source])).toEqual([
      ['resolved', 1, 'verified'],
      ['resolved', 0, 'verified'],
      ['resolved', 1, 'verified'],
      ['resolved', 0, 'verified'],
      ['resolved', 0, 'verified'],
    ]);
    expect(JSON.parse(a.evidence_json!)).toMatchObject({
      resolver: 'value_above',
      value: 3500.1,
      threshold: 3500,
      field: 'usd',
      source: 'coingecko',
    });
    expect(JSON.parse(h.evidence_json!)).toMatchObject({
      resolver: 'event_occurred',
      since: COP31_SEEN_S - 600,
      match: { title: 'COP31 climate talks run into final night as finance deal stalls', as_of: COP31_SEEN_S },
    });
    expect(JSON.parse(d.evidence_json!)).toMatchObject({ match: null, rows_checked: expect.any(Number) });
    const curve = (await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: agent, kind: 'k' } })).json();
    expect(curve).toMatchObject({ resolved_claims: 5, verified_outcomes: 5, self_reported_outcomes: 0 });
  });
});
