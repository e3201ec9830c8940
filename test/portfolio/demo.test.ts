import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { DEMO_PUBLIC_TOKEN } from '../fakes/plaid.js';
import { startDemoApp } from '../demo/helpers.js';

/** SVC_DEMO=1 without SVC_MODELS or Plaid credentials: the loopback vendor and Plaid fakes answer, labelled "demo". */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DEMO: '1', UPSTREAM_LLM_KEY: '' } });
});
afterAll(() => t.close());

describe('the demo', () => {
  it('links the sandbox account, computes insights and answers a question as model "demo"', async () => {
    const { portfolio_token: token, link_token: linkToken } = (
      await t.app.inject({ method: 'POST', url: '/api/portfolio/link', payload: { user_id: 'demo-user' } })
    ).json();
    expect(linkToken).toMatch(/^link-sandbox-/);
    const headers = { authorization: `Bearer ${token}` };
    const synced = await t.app.inject({
      method: 'POST',
      url: '/api/portfolio/sync',
      payload: { user_id: 'demo-user', public_token: DEMO_PUBLIC_TOKEN },
      headers,
    });
    expect(synced.json().holdings).toHaveLength(4);
    const insights = (await t.app.inject({ url: '/api/portfolio/insights', query: { user_id: 'demo-user' }, headers })).json();
    expect(insights.concentration.top_holding.symbol).toBe('BTC');
    const answer = (
      await t.app.inject({
        method: 'POST',
        url: '/api/portfolio/ask',
        payload: { user_id: 'demo-user', question: 'How concentrated is my portfolio?' },
        headers,
      })
    ).json();
    expect(answer.model).toEqual({ id: 'demo-openai', vendor: 'openai', model: 'demo' });
    expect(answer.answer).toContain(`Your largest holding is BTC at ${insights.concentration.top_holding.share_pct}%`);
    expect(answer.citations[0].receipt_id).toBe(answer.evidence[0].receipt_id);
  });

  it('plans unmatched goals with the demo planner, labelled as such', async () => {
    const body = (await t.app.inject({ url: '/api/v1/agent-context', query: { goal: 'compare gold with the euro' } })).json();
    expect(body).toMatchObject({ planner: 'language_model', model: { model: 'demo' } });
    expect(body.context.decision_recipe.caveats[0]).toMatch(/^Demo planner/);
    expect(body.context.primary.length).toBeGreaterThan(0);
  });
});

describe('the demo world', () => {
  let world: TestApp;
  beforeAll(async () => {
    world = await startDemoApp(Date.UTC(2026, 10, 21, 15, 0, 0));
  });
  afterAll(() => world?.close());

  it('syncs any wallet from the demo chain world, on every chain Blockscout serves', async () => {
    const { portfolio_token: token } = (
      await world.app.inject({ method: 'POST', url: '/api/portfolio/link', payload: { user_id: 'wallet-user' } })
    ).json();
    const wallets = ['ethereum:0xd8da6bf26964af9d7eed9e03e53415d37aa96045', 'base:0x28c6c06298d514db089934071355e5743bf21d60'];
    const synced = await world.app.inject({
      method: 'POST',
      url: '/api/portfolio/sync',
      payload: { user_id: 'wallet-user', wallets },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(synced.statusCode, synced.body).toBe(200);
    const symbols = synced.json().holdings.map((h: { symbol: string }) => h.symbol);
    expect(symbols).toContain('ETH');
    expect(symbols.filter((s: string) => s !== 'ETH').length).toBeGreaterThan(0);
    for (const h of synced.json().holdings) expect(h.quantity).toBeGreaterThan(0);
  });
});
