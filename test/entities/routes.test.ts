import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('entity endpoints', () => {
  it('resolve: signed matches with confidence, limit bounds, empty q refused', async () => {
    const res = (await t.app.inject('/api/v1/entity/resolve?q=US0378331005')).json();
    expect(res).toMatchObject({
      count: 1,
      query: 'US0378331005',
      ambiguous: false,
      matches: [{ id: 'svc-ent:eq.aapl', name: 'Apple Inc.', type: 'equity', confidence: 1, matched_on: 'isin' }],
    });
    expect(res._receipt.v).toBe(1);
    expect((await t.app.inject('/api/v1/entity/resolve?q=a&limit=21')).json().details).toMatchObject({ field: 'limit', rule: 'maximum' });
    expect((await t.app.inject('/api/v1/entity/resolve?q=')).json().details).toMatchObject({ field: 'q', rule: 'minLength' });
    expect((await t.app.inject('/api/v1/entity/resolve?q=etherium&limit=1')).json().count).toBe(1);
  });

  it('detail: record, supported types derived from the descriptors, ready-to-run calls; 404 and 400', async () => {
    const btc = (await t.app.inject('/api/v1/entity/svc-ent:cr.bitcoin')).json();
    expect(btc).toMatchObject({ id: 'svc-ent:cr.bitcoin', name: 'Bitcoin', type: 'crypto', ids: { coingecko: 'bitcoin', symbol: 'BTC' } });
    expect(btc.supported_types).toEqual(expect.arrayContaining(['crypto-price', 'ta-indicators', 'funding-rates']));
    expect(btc.example_calls).toContain('http://svc.test/api/data/preview?type=crypto-price&entity=svc-ent%3Acr.bitcoin');
    expect(btc.source).toMatch(
      /^curated: svc maintainers \(compiled from public identifiers, not a registry publication\); https:\/\/.*; retrieved 2026-11-22$/,
    );
    const aapl = (await t.app.inject('/api/v1/entity/svc-ent:eq.aapl')).json();
    expect(aapl.supported_types).toEqual(['stock-quote']);
    const missing = await t.app.inject('/api/v1/entity/svc-ent:eq.nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('not_found');
    expect((await t.app.inject('/api/v1/entity/apple')).statusCode).toBe(400);
  });

  it('list: filters by type and category and pages', async () => {
    const page = (await t.app.inject('/api/v1/entity/list?type=equity&limit=10&offset=5')).json();
    expect(page).toMatchObject({ count: 10, limit: 10, offset: 5 });
    expect(page.total).toBeGreaterThanOrEqual(50);
    expect(page.source).toMatch(/^curated: .*retrieved \d{4}-\d{2}-\d{2}$/);
    expect(page.entities.every((e: { type: string }) => e.type === 'equity')).toBe(true);
    const metals = (await t.app.inject('/api/v1/entity/list?type=commodity&category=metals')).json();
    expect(metals.entities.map((e: { id: string }) => e.id)).toContain('svc-ent:cmd.gold');
    expect((await t.app.inject('/api/v1/entity/list?type=bond')).statusCode).toBe(400);
    expect((await t.app.inject('/api/v1/entity/list?limit=201')).statusCode).toBe(400);
  });

  it('list at its maximum stays under the token budget: a page cut short says where the next starts, and the pages hold every entity once', async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const seen: string[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total;) {
      const res = await t.app.inject(`/api/v1/entity/list?limit=200&offset=${offset}`);
      expect(countTokens(res.body), `offset ${offset}`).toBeLessThanOrEqual(10_000);
      const page = res.json();
      total = page.total;
      seen.push(...page.entities.map((e: { id: string }) => e.id));
      expect(page.count).toBe(page.entities.length);
      if (page.next_offset === undefined) expect(offset + page.count).toBe(total);
      else expect(page.next_offset).toBe(offset + page.count);
      offset += page.count;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const first = (await t.app.inject('/api/v1/entity/list?limit=200')).json();
    expect(first.count).toBeLessThan(Math.min(200, first.total)); // 200 entities would be ~13k tokens
  });

  it('bundle queries take entity= too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle?free=1',
      payload: {
        queries: [
          { type: 'crypto-price', entity: 'svc-ent:cr.ethereum' },
          { type: 'economic-indicator', entity: 'svc-ent:fx.eurusd' },
        ],
      },
    });
    expect(res.json().queries).toEqual([
      { type: 'crypto-price', q: 'ethereum' },
      { type: 'economic-indicator', q: 'DEXUSEU' },
    ]);
  });
});
