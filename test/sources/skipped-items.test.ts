import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadFixtures, type Exchange } from '../../src/upstream/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * One bad item in a long upstream list (DefiLlama's pools, its stablecoin list) is left out and counted in
 * `skipped_items` instead of turning the whole answer into upstream_bad_response.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearOverrides();
  t.sim.clearFaults();
  t.deps.upstream.resetBreakers();
});

const recorded = (type: string): Exchange => structuredClone(loadFixtures().find((f) => f.type === type)!.exchanges[0]!);

/** Serves the type's recorded list with `bad` appended to it. */
function serveWithBadItem(type: string, list: string, bad: unknown) {
  const exchange = recorded(type);
  const body = exchange.body as Record<string, unknown[]>;
  body[list]!.push(bad);
  t.sim.serve(exchange);
}

describe('skipped_items', () => {
  it('defi-yield answers from 15k pools when one has tvlUsd null, and says one was skipped (regression: upstream_bad_response)', async () => {
    serveWithBadItem('defi-yield', 'data', { chain: 'Ethereum', project: 'x', symbol: 'USDC', tvlUsd: null, pool: 'bad-pool', apy: 99 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle?free=1',
      payload: { queries: [{ type: 'defi-yield', q: 'USDC' }] },
    });
    const [result] = res.json().results;
    expect(result).toMatchObject({ ok: true, data: { skipped_items: 1 } });
    expect(result.data.results[0].pool_id).not.toBe('bad-pool');
  });

  it('stable-depeg answers when one listed stablecoin lacks its circulating supply, and the preview says so', async () => {
    serveWithBadItem('stable-depeg', 'peggedAssets', { id: '999', name: 'New Dollar', symbol: 'NUSD', pegType: 'peggedUSD', price: 1 });
    const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'stable-depeg', q: 'USDT', max_age: '0' } });
    expect(res.json()).toMatchObject({ ok: true, skipped_items: 1, preview: { symbol: 'USDT' } });
  });

  it('says nothing when nothing was skipped', async () => {
    const result = await t.deps.sources.run('defi-yield', 'USDC', { maxAgeS: 0 });
    expect(result.ok).toBe(true);
    expect(result).not.toHaveProperty('skipped_items');
  });
});
