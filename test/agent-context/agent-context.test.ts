import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { PRICES, singleQueryPrice } from '../../src/payments/pricing.js';
import { subjectOf } from '../../src/agent-context/subject.js';
import { goalFacts, planGoal } from '../../src/agent-context/goals.js';
import type { ApiError } from '../../src/core/errors.js';
import { EntityResolver } from '../../src/entities/resolver.js';
import { loadDataset } from '../../src/entities/dataset.js';
import { startModelFakes, type ModelFakes } from '../fakes/models.js';

let t: TestApp;
let fakes: ModelFakes;
beforeAll(async () => {
  const models = await startModelFakes();
  fakes = models.fakes;
  // The first goal's fetches run while the app answers its first requests; on a loaded runner the helper's 1.5 s
  // upstream deadline let the funding rate's primary time out and its fallback answer (a regression seen in a full run).
  t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO, ...models.env }, deadlineCapMs: 5000 });
});
afterAll(async () => {
  await t.close();
  await fakes.close();
});

const context = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({ url: '/api/v1/agent-context', query, headers });

describe('GET /api/v1/agent-context', () => {
  it('maps a buy goal to price, indicators and funding, one row each, and lists the supporting fetches unpaid', async () => {
    const res = await context({ goal: 'Should I buy BTC this week?' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ goal_category: 'buy_crypto', subject: 'svc-ent:cr.bitcoin', paid: false });
    expect(body.context.primary.map((p: { type: string; q: string }) => `${p.type} ${p.q}`)).toEqual([
      'crypto-price bitcoin',
      'ta-indicators BTC:1h',
      'funding-rates BTC',
    ]);
    expect(body.context.primary[0]).toMatchObject({
      ok: true,
      data: { count: 1, results: [{ coin: 'bitcoin', usd: 67188.12 }], source: 'coingecko' },
    });
    expect(body.context.primary[2].data.results[0]).toMatchObject({ symbol: 'BTC', funding_rate: 0.0001 });
    expect(body.context.supporting).toEqual([
      { type: 'sentiment-ticker', q: 'BTC' },
      { type: 'order-book', q: 'binance:BTC-USDT' },
      { type: 'economic-indicator', q: 'DGS10' },
    ]);
    expect(body.context.decision_recipe.outcomes).toEqual(['buy', 'wait']);
    expect(body._receipt.sources).toEqual(['binance', 'binance-futures', 'coingecko']);
  });

  it('runs the supporting fetches too, with all rows, for a verified payment of the agent-context price', async () => {
    const header = await paymentHeader({ nowS: Math.floor(t.clock.now() / 1000), amount: PRICES.agentContext });
    const res = await context({ goal: 'sell ETH?' }, { 'x-payment': header });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ goal_category: 'sell_crypto', subject: 'svc-ent:cr.ethereum', paid: true });
    expect(body.context.supporting).toHaveLength(3);
    expect(body.context.supporting[0]).toMatchObject({ type: 'sentiment-ticker', q: 'ETH', ok: expect.any(Boolean) });
    const retried = await context({ goal: 'sell ETH?' }, { 'x-payment': header });
    expect(retried.json().context).toEqual(body.context);
  });

  it('answers 402 for a payment of the wrong amount, and free=1 never asks for one', async () => {
    const header = await paymentHeader({ nowS: Math.floor(t.clock.now() / 1000), amount: singleQueryPrice() });
    const res = await context({ goal: 'buy BTC' }, { 'x-payment': header });
    expect(res.statusCode).toBe(402);
    expect(res.json().invoice.amount).toBe(String(PRICES.agentContext));
    expect((await context({ goal: 'buy BTC', free: '1' }, { 'x-payment': header })).json().paid).toBe(false);
  });

  it('takes the subject from entity= and sends equities to the stock rule', async () => {
    const body = (await context({ goal: 'should I buy it?', entity: 'svc-ent:eq.aapl' })).json();
    expect(body).toMatchObject({ goal_category: 'stock_decision', subject: 'svc-ent:eq.aapl' });
    expect(body.context.primary[0]).toMatchObject({ type: 'stock-quote', q: 'AAPL', ok: true, data: { results: [{ symbol: 'AAPL' }] } });
  });

  it('reads coordinates and addresses from the goal', async () => {
    const weather = (await context({ goal: 'will the weather near 52.52,13.41 hurt wheat?' })).json();
    expect(weather).toMatchObject({ goal_category: 'weather_impact', subject: '52.52,13.41' });
    expect(weather.context.primary[0]).toMatchObject({ type: 'weather', q: '52.52,13.41' });
    expect(weather.context.supporting[0]).toEqual({ type: 'agriculture-prices', q: 'wheat' });
    const scan = (await context({ goal: 'is 0xdAC17F958D2ee523a2206206994597C13D831ec7 a scam?' })).json();
    expect(scan).toMatchObject({ goal_category: 'security_scan' });
    expect(scan.context.primary[0]).toMatchObject({ type: 'token-risk', q: 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7' });
  });

  it('names the missing parameter, refuses a goal no rule matches, and checks the entity', async () => {
    const missing = await context({ goal: 'is this token safe?' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'validation_failed', details: { field: 'goal', rule: 'missing_parameter' } });
    expect((await context({ goal: 'buy it', entity: 'svc-ent:cr.nope' })).statusCode).toBe(404);
    expect((await context({ goal: 'buy it', entity: 'bitcoin' })).statusCode).toBe(400);
    expect((await context({ goal: 'x' })).json()).toMatchObject({ error: 'validation_failed', details: { field: 'goal' } });
  });
});

describe('the goal kinds of the spec', () => {
  const steps = (list: { type: string; q: string }[]) => list.map((p) => `${p.type} ${p.q}`);
  const btc = ['crypto-price bitcoin', 'ta-indicators BTC:1h', 'funding-rates BTC'];
  const eth = ['crypto-price ethereum', 'ta-indicators ETH:1h', 'funding-rates ETH'];
  const btcSupport = ['sentiment-ticker BTC', 'order-book binance:BTC-USDT', 'economic-indicator DGS10'];
  const ethSupport = ['sentiment-ticker ETH', 'order-book binance:ETH-USDT', 'economic-indicator DGS10'];
  const usdt = 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7';
  const uniswap = 'arbitrum:0x1f98431c8ad98523631ae4a59f267346ea31f984';
  it.each([
    ['buy BTC', 'Should I buy BTC this week?', 'buy_crypto', btc, btcSupport],
    ['sell BTC', 'time to take profits on bitcoin?', 'sell_crypto', btc, btcSupport],
    ['buy ETH', 'accumulate ETH here?', 'buy_crypto', eth, ethSupport],
    ['sell ETH', 'should I sell my ETH', 'sell_crypto', eth, ethSupport],
    [
      'security scan',
      `is ${usdt.slice(9)} a honeypot?`,
      'security_scan',
      [`token-risk ${usdt}`],
      [`contract-risk ${usdt}`, `mev-exposure ${usdt}`],
    ],
    [
      'news brief',
      'news brief on solana',
      'news_brief',
      ['news-hn-top ', 'gdelt-events solana'],
      ['reddit-trending popular', 'who-outbreak latest'],
    ],
    [
      'contract check',
      `check the contract ${uniswap.slice(9)} on arbitrum before I approve it`,
      'contract_check',
      [`contract-risk ${uniswap}`],
      [`token-risk ${uniswap}`],
    ],
    [
      'contract check on Ethereum',
      `is the contract ${usdt.slice(9)} verified?`,
      'contract_check',
      [`contract-risk ${usdt}`],
      [`token-risk ${usdt}`, `mev-exposure ${usdt}`],
    ],
    [
      'portfolio risk',
      'how risky is my portfolio right now?',
      'portfolio_risk',
      ['crypto-price bitcoin,ethereum', 'stable-depeg USDT', 'economic-indicator DGS10'],
      ['funding-rates BTC', 'forex USD:EUR', 'commodity-metals gold'],
    ],
    ['DeFi yield', 'best USDC yield right now', 'defi_yield', ['defi-yield USDC'], ['stable-depeg USDC', 'gas-prices-eth ']],
    [
      'weather impact',
      'will the weather at 41.88,-87.63 hurt soybeans?',
      'weather_impact',
      ['weather 41.88,-87.63'],
      ['agriculture-prices soybeans', 'energy-oil WTI', 'air-quality 41.88,-87.63'],
    ],
    ['stock decision', 'should I buy $AAPL shares?', 'stock_decision', ['stock-quote AAPL'], ['economic-indicator DGS10', 'sec-edgar 8-K']],
  ])('%s: "%s" → %s', async (_kind, goal, category, primary, supporting) => {
    const res = await context({ goal });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ goal_category: category, planner: 'rules' });
    expect(steps(body.context.primary)).toEqual(primary);
    expect(steps(body.context.supporting)).toEqual(supporting);
    expect(body.context.decision_recipe.rules.at(-1).when).toBe('otherwise');
  });
});

describe('every query a rule builds is one its own type takes', () => {
  const long = 'and what it means for the next quarter given everything that has been going on lately';
  it.each([
    ['buy_crypto', 'buy OP', ['crypto-price optimism', 'ta-indicators OP:1h', 'funding-rates OP']],
    ['buy_crypto', `should I accumulate STETH ${long}?`, ['crypto-price staked-ether', 'ta-indicators STETH:1h', 'funding-rates STETH']],
    ['sell_crypto', 'sell OP', ['crypto-price optimism', 'ta-indicators OP:1h', 'funding-rates OP']],
    [
      'sell_crypto',
      `time to take profits on Render ${long}?`,
      ['crypto-price render-token', 'ta-indicators RENDER:1h', 'funding-rates RENDER'],
    ],
    ['news_brief', 'news brief on AI', ['news-hn-top ', 'gdelt-events artificial intelligence']],
    ['news_brief', 'news on Go', ['news-hn-top ', 'gdelt-events go news']],
    ['news_brief', 'news brief on the S&P 500', ['news-hn-top ', 'gdelt-events sp500']],
    ['news_brief', 'news about USD/JPY', ['news-hn-top ', 'gdelt-events usd jpy']],
    [
      'news_brief',
      `news brief on ${'supercalifragilistic'.repeat(6)} regulation`,
      ['news-hn-top ', `gdelt-events ${'supercalifragilistic'.repeat(6).slice(0, 80)}`],
    ],
    [
      'news_brief',
      `news brief on artificial intelligence regulation ${long}`,
      ['news-hn-top ', 'gdelt-events artificial intelligence regulation'],
    ],
    ['defi_yield', 'best OP yield', ['defi-yield OP']],
    ['defi_yield', 'yield on $BRK-B', ['defi-yield USDC']],
    ['defi_yield', `best PYUSD lending yield ${long}`, ['defi-yield PYUSD']],
    ['stock_decision', 'should I buy $V shares?', ['stock-quote V']],
    ['stock_decision', `should I buy $BRK-B stock ${long}?`, ['stock-quote BRK-B']],
    [
      'security_scan',
      'is 0xdac17f958d2ee523a2206206994597c13d831ec7 safe?',
      ['token-risk ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7'],
    ],
    [
      'contract_check',
      `check the contract 0x1f98431c8ad98523631ae4a59f267346ea31f984 on base ${long}`,
      ['contract-risk base:0x1f98431c8ad98523631ae4a59f267346ea31f984'],
    ],
    ['portfolio_risk', 'risk?', ['crypto-price bitcoin,ethereum', 'stable-depeg USDT', 'economic-indicator DGS10']],
    ['weather_impact', `how will the weather at 0,0 ${long} affect wheat?`, ['weather 0,0']],
  ])('%s: "%s"', async (category, goal, primary) => {
    const res = await context({ goal, free: '1' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json();
    expect(body.goal_category).toBe(category);
    expect(body.context.primary.map((p: { type: string; q: string }) => `${p.type} ${p.q}`)).toEqual(primary);
  });

  it('for every entity of the graph and every rule that plans for it', () => {
    const goals = ['should I buy {s}?', 'sell {s} now', 'best {s} yield', 'news brief on {s}', 'should I buy {s} shares?', 'is {s} safe?'];
    const refused: string[] = [];
    for (const entity of loadDataset().entities) {
      for (const goal of goals) {
        let plan;
        try {
          plan = planGoal(goalFacts(goal.replace('{s}', entity.name), entity));
        } catch (e) {
          expect((e as ApiError).details).toMatchObject({ field: 'goal', rule: 'missing_parameter' });
          continue;
        }
        for (const step of [...(plan?.primary ?? []), ...(plan?.supporting ?? [])]) {
          try {
            t.deps.sources.prepare(step.type, step.q);
          } catch {
            refused.push(`${entity.id} ${step.type} "${step.q}"`);
          }
        }
      }
    }
    expect(refused).toEqual([]);
  });
});

describe('goals no rule matches', () => {
  it('are planned by the planner model, keeping only the steps that are valid', async () => {
    fakes.reset();
    fakes.queue({
      json: {
        primary: [
          { type: 'commodity-metals', q: 'gold' },
          { type: 'forex', q: 'EUR:USD' },
          { type: 'no-such-type', q: 'x' },
        ],
        supporting: [
          { type: 'crypto-price', q: 'Gold Token!!' },
          { type: 'economic-indicator', q: 'DGS10' },
        ],
        decision_recipe: {
          outcomes: ['prefer gold', 'prefer euro', 'neutral'],
          rules: [
            { when: 'gold change_pct above EUR:USD change', then: 'prefer gold' },
            { when: 'otherwise', then: 'neutral' },
          ],
          caveats: [],
        },
      },
    });
    const res = await context({ goal: 'compare gold with the euro' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      goal_category: 'other',
      planner: 'language_model',
      subject: 'svc-ent:cmd.gold',
      paid: false,
      model: { id: 'demo-openai', vendor: 'openai', model: 'fake-1' },
    });
    expect(body.context.primary.map((p: { type: string; q: string }) => `${p.type} ${p.q}`)).toEqual([
      'commodity-metals gold',
      'forex EUR:USD',
    ]);
    expect(body.context.primary[0].ok).toBe(true);
    expect(body.context.supporting).toEqual([{ type: 'economic-indicator', q: 'DGS10' }]);
    expect(body.context.decision_recipe.outcomes).toEqual(['prefer gold', 'prefer euro', 'neutral']);
    const call = fakes.calls[0]!;
    expect(call).toMatchObject({
      wire: 'openai-chat',
      schemaName: 'goal_plan',
      messages: [{ role: 'user', text: 'compare gold with the euro' }],
    });
    expect(call.system).toContain('- commodity-metals: q = ');
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(/svc_model_calls_total\{vendor="openai",model="demo-openai",outcome="ok"\} 1/);
    expect(metrics).toMatch(/svc_model_cost_usd_total\{vendor="openai",model="demo-openai"\} [0-9.e-]+/);
  });

  it('answer 503 naming the reason when the model fails, and never reach it for goals a rule matches', async () => {
    fakes.reset();
    await context({ goal: 'buy BTC' });
    expect(fakes.calls).toHaveLength(0);
    fakes.queue({ status: 500 }, { status: 500 });
    const res = await context({ goal: 'compare gold with the euro' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      error: 'upstream_unavailable',
      details: { field: 'goal', reason: 'vendor_error', model: { vendor: 'openai' } },
    });
    fakes.queue({
      json: {
        primary: [{ type: 'no-such-type', q: 'x' }],
        supporting: [],
        decision_recipe: { outcomes: ['a'], rules: [{ when: 'x', then: 'a' }], caveats: [] },
      },
    });
    expect((await context({ goal: 'compare gold with the euro' })).json()).toMatchObject({
      error: 'upstream_unavailable',
      details: { reason: 'invalid_output' },
    });
  });

  it('still reach the legacy UPSTREAM_LLM_* model when SVC_MODELS is unset', async () => {
    const legacy = await startTestApp({ sim: t.sim });
    t.sim.resetHits();
    const res = await legacy.app.inject({ url: '/api/v1/agent-context', query: { goal: 'compare gold with the euro' } });
    await legacy.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ planner: 'language_model', model: { id: 'llm', vendor: 'openai', model: 'gpt-4o-mini' } });
    expect(t.sim.requests('llm', '/v1/chat/completions')[0]!.headers.authorization).toBe('Bearer sim-key');
  });

  it('are a 422 naming the categories when no model is configured', async () => {
    const keyless = await startTestApp({ sim: t.sim, env: { UPSTREAM_LLM_KEY: '' } });
    const res = await keyless.app.inject({ url: '/api/v1/agent-context', query: { goal: 'tell me a joke' } });
    await keyless.close();
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'goal_unmatched',
      details: { field: 'goal', goal_categories: expect.arrayContaining(['buy_crypto', 'news_brief']) },
    });
  });
});

describe('the subject of a goal', () => {
  const resolver = new EntityResolver(loadDataset().entities);
  it.each([
    ['buy $AAPL now', 'svc-ent:eq.aapl'],
    ['buy $V now', 'svc-ent:eq.v'],
    ['is bitcoin overbought', 'svc-ent:cr.bitcoin'],
    ['sell ETH', 'svc-ent:cr.ethereum'],
    ['weather near the coast, link to news', undefined],
    ['should I sell everything', undefined],
  ])('%s → %s', (goal, id) => {
    expect(subjectOf(goal, resolver)?.id).toBe(id);
  });
});
