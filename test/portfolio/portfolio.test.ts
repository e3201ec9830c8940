import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { coinGeckoAlone } from '../helpers/corroboration.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { startModelFakes, type ModelFakes } from '../fakes/models.js';
import { PlaidFake, DEMO_PUBLIC_TOKEN } from '../fakes/plaid.js';
import { PortfolioRepo } from '../../src/store/repos/portfolio.js';
import { SecretBox } from '../../src/portfolio/secret-box.js';

const SECRET_KEY = randomBytes(32);

describe.each(STORE_BACKENDS)('portfolio on %s', (backend) => {
  let t: TestApp;
  let fakes: ModelFakes;
  let plaid: PlaidFake;
  beforeAll(async () => {
    const models = await startModelFakes();
    fakes = models.fakes;
    plaid = await new PlaidFake('client-1', 'secret-1').start();
    t = await startTestApp({
      postgres: backend === 'postgres',
      env: {
        ...models.env,
        PLAID_CLIENT_ID: 'client-1',
        PLAID_SECRET: 'secret-1',
        PLAID_BASE_URL: plaid.url,
        SVC_SECRET_KEY: SECRET_KEY.toString('hex'),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fakes.close();
    await plaid.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const link = (user_id: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/portfolio/link', payload: { user_id }, headers });
  const sync = (payload: Record<string, unknown>, token: string) =>
    t.app.inject({ method: 'POST', url: '/api/portfolio/sync', payload, headers: bearer(token) });
  const insights = (user_id: string, token: string) =>
    t.app.inject({ url: '/api/portfolio/insights', query: { user_id }, headers: bearer(token) });
  const ask = (user_id: string, question: string, token: string) =>
    t.app.inject({ method: 'POST', url: '/api/portfolio/ask', payload: { user_id, question }, headers: bearer(token) });
  const verify = async (receipt: unknown) =>
    (await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt } })).json();

  async function newUser(): Promise<{ userId: string; token: string }> {
    const userId = `u-${randomBytes(4).toString('hex')}`;
    const res = await link(userId);
    expect(res.statusCode).toBe(200);
    return { userId, token: res.json().portfolio_token };
  }

  it('links → syncs the Plaid sandbox → computes insights → answers with receipts → deletes everything', async () => {
    const { userId, token } = await newUser();
    expect(token).toMatch(/^svc-pt_[A-Za-z0-9_-]{43}$/);
    expect(plaid.requests.at(-1)).toMatchObject({
      path: '/link/token/create',
      body: { user: { client_user_id: userId }, products: ['investments'] },
    });

    const synced = await sync({ user_id: userId, public_token: DEMO_PUBLIC_TOKEN }, token);
    expect(synced.statusCode).toBe(200);
    const snapshot = synced.json();
    expect(snapshot.source).toBe('plaid');
    expect(
      snapshot.holdings.map((h: { symbol: string; entity_id: string | null; asset_class: string }) => [
        h.symbol,
        h.entity_id,
        h.asset_class,
      ]),
    ).toEqual([
      ['AAPL', 'svc-ent:eq.aapl', 'equity'],
      ['BTC', 'svc-ent:cr.bitcoin', 'crypto'],
      ['CAMYX', null, 'fund'],
      ['CUR:USD', null, 'cash'],
    ]);
    expect(snapshot.unmapped).toEqual([
      {
        symbol: 'CAMYX',
        name: 'Cambiar International Equity Instl',
        identifiers: { ticker: 'CAMYX' },
        reason: 'no entity carries this identifier exactly',
      },
    ]);
    expect(snapshot.balances.map((b: { name: string; current: number }) => [b.name, b.current])).toEqual([
      ['IRA', 9300],
      ['Checking', 110],
    ]);
    expect(snapshot.transactions.map((x: { symbol: string; date: string }) => [x.symbol, x.date])).toEqual([
      ['AAPL', '2026-11-19'],
      ['BTC', '2026-11-10'],
    ]);
    expect(synced.body).not.toContain('access-sandbox');

    // The access token is stored sealed, opens only with the key and the owner, and is what Plaid gets.
    const row = await new PortfolioRepo(t.deps.store.db).user(userId);
    expect(row!.plaid_token_enc).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row!.plaid_token_enc).not.toContain('access-sandbox');
    const accessToken = new SecretBox([SECRET_KEY]).open(row!.plaid_token_enc!, userId);
    expect(plaid.requests.find((r) => r.path === '/investments/holdings/get')!.body.access_token).toBe(accessToken);
    expect(() => new SecretBox([SECRET_KEY]).open(row!.plaid_token_enc!, 'someone-else')).toThrow();

    const res = await insights(userId, token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const values = { AAPL: 10 * 227.48, BTC: 0.05 * 67188.12, CAMYX: 100 * 8.5, 'CUR:USD': 1200 };
    const total = Object.values(values).reduce((a, b) => a + b, 0);
    expect(body.market_value).toBeCloseTo(total, 2);
    expect(body.positions.map((p: { symbol: string; price_source: string }) => [p.symbol, p.price_source])).toEqual([
      ['AAPL', 'yahoo'],
      ['BTC', 'coingecko'],
      ['CAMYX', 'plaid-institution-price'],
      ['CUR:USD', 'cash'],
    ]);
    // Every position carries its price's freshness, as every data row does.
    const nowS = Math.floor(t.clock.now() / 1000);
    for (const p of body.positions) {
      expect(p, p.symbol).toMatchObject({
        as_of: p.price_as_of,
        as_of_kind: expect.stringMatching(/^(source|fetched)$/),
        stale: expect.any(Boolean),
      });
      expect(p.age_s, p.symbol).toBe(Math.max(0, nowS - p.as_of));
    }
    const bySymbol = Object.fromEntries(body.positions.map((p: { symbol: string }) => [p.symbol, p]));
    expect(bySymbol['CUR:USD']).toMatchObject({ as_of_kind: 'fetched', stale: false });
    expect(bySymbol.BTC.stale).toBe(false);
    expect(bySymbol.CAMYX.stale).toBe(nowS - bySymbol.CAMYX.as_of > 86_400);
    expect(body.concentration.top_holding).toEqual({ symbol: 'BTC', share_pct: Number(((values.BTC / total) * 100).toFixed(2)) });
    const hhi = Object.values(values).reduce((a, v) => a + (v / total) ** 2, 0);
    expect(body.concentration.hhi).toBeCloseTo(hhi, 4);
    expect(body.allocation.asset_class).toEqual({
      crypto: Number(((values.BTC / total) * 100).toFixed(2)),
      equity: Number(((values.AAPL / total) * 100).toFixed(2)),
      cash: Number(((1200 / total) * 100).toFixed(2)),
      fund: Number(((850 / total) * 100).toFixed(2)),
    });
    const pl = total - (1500 + 2000 + 900 + 1200);
    expect(body.unrealized_pl).toEqual({
      usd: Number(pl.toFixed(2)),
      pct: Number(((pl / 5600) * 100).toFixed(2)),
      positions_with_cost_basis: 4,
    });
    expect(body.risk.window_days).toBe(30);
    expect(body.risk.coverage_pct).toBeGreaterThanOrEqual(Number(((1200 / total) * 100).toFixed(2)));
    expect(await verify(body._receipt)).toMatchObject({ valid: true });

    const answered = await ask(userId, 'Should I sell my BTC?', token);
    expect(answered.statusCode).toBe(200);
    const answer = answered.json();
    expect(answer.evidence.map((e: { source_type: string }) => e.source_type)).toEqual([
      'portfolio-insights',
      'crypto-price',
      'ta-indicators',
      'funding-rates',
    ]);
    expect(answer).toMatchObject({
      answerable: true,
      model: { id: 'demo-openai', model: 'fake-1' },
      dropped_citations: 0,
      disclaimer: expect.stringMatching(/^Not financial advice/),
    });
    expect(answer.answer).toContain('Your largest holding is BTC');
    expect(answer.citations).toEqual([
      { claim: expect.stringContaining('BTC'), source_type: 'portfolio-insights', receipt_id: answer.evidence[0].receipt_id },
    ]);
    for (const e of answer.evidence) {
      expect(e._receipt.response_hash).toBe(e.receipt_id);
      expect(await verify(e._receipt)).toMatchObject({ valid: true });
    }
    const call = fakes.calls.at(-1)!;
    expect(call.schemaName).toBe('portfolio_answer');
    expect(call.messages.map((m) => m.text.split('\n')[0])).toEqual([
      'Quoted data (portfolio insights):',
      'Quoted data (crypto-price bitcoin):',
      'Quoted data (ta-indicators BTC:1h):',
      'Quoted data (funding-rates BTC):',
      'Should I sell my BTC?',
    ]);

    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/portfolio', query: { user_id: userId }, headers: bearer(token) });
    expect(deleted.json()).toEqual({ user_id: userId, deleted: true, plaid_item_removed: true });
    expect(plaid.requests.at(-1)).toMatchObject({ path: '/item/remove', body: { access_token: accessToken } });
    expect(plaid.liveItems()).toBe(0);
    expect(await new PortfolioRepo(t.deps.store.db).footprint(userId)).toBe(0);
    expect((await insights(userId, token)).statusCode).toBe(403);
  });

  it('says when the data cannot answer, and drops citations of receipts it was not given', async () => {
    const { userId, token } = await newUser();
    await sync({ user_id: userId, holdings: [{ symbol: 'AAPL', quantity: 2, cost_basis: 400 }] }, token);
    fakes.queue({
      json: {
        answerable: false,
        answer: 'The data holds nothing about taxes.',
        citations: [{ claim: 'made up', source_type: 'x', receipt_id: 'sha256-invented' }],
      },
    });
    const body = (await ask(userId, 'How much tax will I owe?', token)).json();
    expect(body).toMatchObject({ answerable: false, answer: 'The data holds nothing about taxes.', citations: [], dropped_citations: 1 });
    expect(body.evidence.map((e: { source_type: string }) => e.source_type)).toEqual(['portfolio-insights']);
  });

  it('takes manual holdings, mapped by exact identifiers only', async () => {
    const { userId, token } = await newUser();
    const res = await sync(
      {
        user_id: userId,
        holdings: [
          { isin: 'US0378331005', quantity: 1 },
          { symbol: 'eth', quantity: 2, cost_basis: 5000 },
          { contract: 'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7', quantity: 100 },
          { symbol: 'ZZZQ', quantity: 5 },
        ],
      },
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().holdings.map((h: { entity_id: string | null; asset_class: string }) => [h.entity_id, h.asset_class])).toEqual([
      ['svc-ent:eq.aapl', 'equity'],
      ['svc-ent:cr.ethereum', 'crypto'],
      ['svc-ent:stb.usdt', 'stablecoin'],
      [null, 'other'],
    ]);
    expect(res.json().unmapped).toEqual([
      { symbol: 'ZZZQ', name: null, identifiers: { ticker: 'ZZZQ' }, reason: 'no entity carries this identifier exactly' },
    ]);
    // The recorded CoinGecko answer for ethereum alone (3120.45) is not the one Kraken and Coinbase recorded: leave them out.
    coinGeckoAlone(t.sim);
    const body = (await insights(userId, token)).json();
    t.sim.clearFaults();
    expect(body.unpriced).toEqual([
      { symbol: 'USDT', name: 'Tether', reason: 'crypto-price tether did not answer' },
      { symbol: 'ZZZQ', name: null, reason: 'no data type prices this holding' },
    ]);
    expect(body.positions.find((p: { symbol: string }) => p.symbol === 'ETH')).toMatchObject({
      price: 3120.45,
      value: 6240.9,
      unrealized_pl: 1240.9,
      price_source: 'coingecko',
    });
  });

  it('computes 30-day volatility and max drawdown from the daily candles', async () => {
    const { userId, token } = await newUser();
    await sync({ user_id: userId, holdings: [{ symbol: 'BTC', quantity: 2 }] }, token);
    // 40 daily BTC closes ending yesterday: 100, 110, 99, 110, 99, … (falls of 10%, rises of 11.1%).
    const day = 86_400_000;
    const lastOpen = Math.floor(t.clock.now() / day) * day - day;
    const closes = Array.from({ length: 40 }, (_, i) => (i === 0 ? 100 : i % 2 ? 110 : 99));
    const klines = closes.map((c, i) => [
      lastOpen - (39 - i) * day,
      String(c),
      String(c),
      String(c),
      String(c),
      '1',
      lastOpen - (39 - i) * day + day - 1,
    ]);
    t.sim.serve({ host: 'binance', path: '/api/v3/klines', query: { symbol: 'BTCUSDT', interval: '1d' }, body: klines });
    const body = (await insights(userId, token)).json();
    t.sim.clearOverrides();
    const window = closes.slice(-body.risk.observations);
    expect(body.risk.observations).toBe(30);
    const r = window.slice(1).map((c, i) => c / window[i]! - 1);
    const mean = r.reduce((a, b) => a + b, 0) / r.length;
    const sd = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / (r.length - 1));
    expect(body.risk).toMatchObject({
      daily_volatility_pct: Number((sd * 100).toFixed(4)),
      annualized_volatility_pct: Number((sd * Math.sqrt(365) * 100).toFixed(2)),
      max_drawdown_pct: 10,
      coverage_pct: 100,
    });
  });

  it('reads wallet balances from the chain explorer, mapping tokens by contract only', async () => {
    const { userId, token } = await newUser();
    const wallet = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
    const token20 = (symbol: string, contractAddress: string, balance: string, decimals: string, type = 'ERC-20') => ({
      balance,
      contractAddress,
      decimals,
      name: `${symbol} token`,
      symbol,
      type,
    });
    t.sim.serve({
      host: 'blockscout',
      path: '/api',
      query: { module: 'account', action: 'balance', address: wallet },
      body: { status: '1', message: 'OK', result: '1500000000000000000' },
    });
    t.sim.serve({
      host: 'blockscout',
      path: '/api',
      query: { module: 'account', action: 'tokenlist', address: wallet },
      body: {
        status: '1',
        message: 'OK',
        result: [
          token20('USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7', '2500000000', '6'),
          token20('USDT', '0x1111111111111111111111111111111111111111', '1000', '0'),
          token20('ZERO', '0x2222222222222222222222222222222222222222', '0', '18'),
          token20('NFT', '0x3333333333333333333333333333333333333333', '1', '0', 'ERC-721'),
        ],
      },
    });
    const res = await sync({ user_id: userId, wallets: [`ethereum:${wallet}`], holdings: [{ symbol: 'AAPL', quantity: 1 }] }, token);
    t.sim.clearOverrides();
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .holdings.map((h: { symbol: string; entity_id: string | null; quantity: number; source: string }) => [
          h.symbol,
          h.entity_id,
          h.quantity,
          h.source,
        ]),
    ).toEqual([
      ['AAPL', 'svc-ent:eq.aapl', 1, 'manual'],
      ['ETH', 'svc-ent:cr.ethereum', 1.5, 'wallet'],
      ['USDT', 'svc-ent:stb.usdt', 2500, 'wallet'],
      ['USDT', null, 1000, 'wallet'],
    ]);
    expect(res.json().unmapped).toEqual([
      {
        symbol: 'USDT',
        name: 'USDT token',
        identifiers: { contract: 'ethereum:0x1111111111111111111111111111111111111111' },
        reason: 'no entity carries this identifier exactly',
      },
    ]);
    expect((await sync({ user_id: userId, wallets: [`polygon:${wallet}`] }, token)).json()).toMatchObject({
      error: 'validation_failed',
      details: { field: 'wallets[0]' },
    });
    t.sim.fault('blockscout', { kind: 'status', status: 500 });
    const down = await sync({ user_id: userId, wallets: [`ethereum:${wallet}`] }, token);
    t.sim.clearFaults();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'upstream_unavailable', details: { field: 'wallets[0]' } });
  });

  it('guards every call with the owner’s token: 401 without, 403 with another user’s', async () => {
    const alice = await newUser();
    const bob = await newUser();
    await sync({ user_id: alice.userId, holdings: [{ symbol: 'AAPL', quantity: 1 }] }, alice.token);
    expect((await link(alice.userId)).statusCode).toBe(401);
    expect((await link(alice.userId, bearer(bob.token))).statusCode).toBe(403);
    const again = await link(alice.userId, bearer(alice.token));
    expect(again.json()).toMatchObject({
      user_id: alice.userId,
      portfolio_token: null,
      link_token: expect.stringMatching(/^link-sandbox-/),
    });
    const attempts = [
      await insights(alice.userId, bob.token),
      await ask(alice.userId, 'what do I hold?', bob.token),
      await sync({ user_id: alice.userId, holdings: [{ symbol: 'BTC', quantity: 1 }] }, bob.token),
      await t.app.inject({ method: 'DELETE', url: '/api/portfolio', query: { user_id: alice.userId }, headers: bearer(bob.token) }),
      await insights('nobody-here', bob.token),
    ];
    for (const res of attempts) expect(res.json()).toMatchObject({ error: 'forbidden', details: { field: 'user_id' } });
    const anonymous = await t.app.inject({ url: '/api/portfolio/insights', query: { user_id: alice.userId } });
    expect(anonymous.statusCode).toBe(401);
    expect((await insights(alice.userId, alice.token)).json().positions[0].symbol).toBe('AAPL');
  });

  it('names the field of every bad body', async () => {
    const { userId, token } = await newUser();
    const bad = async (payload: Record<string, unknown>) => (await sync({ user_id: userId, ...payload }, token)).json();
    expect(await bad({ holdings: [{ symbol: 'AAPL', isin: 'US0378331005', quantity: 1 }] })).toMatchObject({
      error: 'validation_failed',
      details: { field: 'holdings[0]' },
    });
    expect(await bad({ holdings: [{ isin: 'US0378331006', quantity: 1 }] })).toMatchObject({
      error: 'validation_failed',
      details: { field: 'holdings[0].isin' },
    });
    expect((await sync({ user_id: userId, holdings: [{ symbol: 'AAPL', quantity: -1 }] }, token)).statusCode).toBe(400);
    expect(await bad({ public_token: DEMO_PUBLIC_TOKEN, holdings: [{ symbol: 'AAPL', quantity: 1 }] })).toMatchObject({
      details: { field: 'holdings' },
    });
    expect(await bad({})).toMatchObject({ error: 'validation_failed', details: { field: 'public_token' } });
    expect(await bad({ public_token: 'public-sandbox-unknown' })).toMatchObject({
      error: 'validation_failed',
      details: { field: 'public_token', plaid_error: 'INVALID_PUBLIC_TOKEN' },
    });
    expect((await link('x')).statusCode).toBe(400);
    expect((await insights(userId, token)).json()).toMatchObject({ error: 'not_found' });
  });
});

describe('without Plaid or models', () => {
  it('manual holdings still work, linking returns no link_token, and ask is 503 model_unavailable', async () => {
    const t = await startTestApp({ env: { UPSTREAM_LLM_KEY: '' } });
    try {
      const linked = (await t.app.inject({ method: 'POST', url: '/api/portfolio/link', payload: { user_id: 'solo-user' } })).json();
      expect(linked.link_token).toBeNull();
      const headers = { authorization: `Bearer ${linked.portfolio_token}` };
      const plaidSync = await t.app.inject({
        method: 'POST',
        url: '/api/portfolio/sync',
        payload: { user_id: 'solo-user', public_token: DEMO_PUBLIC_TOKEN },
        headers,
      });
      expect(plaidSync.json()).toMatchObject({ error: 'validation_failed', details: { field: 'public_token' } });
      await t.app.inject({
        method: 'POST',
        url: '/api/portfolio/sync',
        payload: { user_id: 'solo-user', holdings: [{ symbol: 'BTC', quantity: 1 }] },
        headers,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/portfolio/ask',
        payload: { user_id: 'solo-user', question: 'what do I hold?' },
        headers,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'model_unavailable', details: { role: 'answerer' } });
    } finally {
      await t.close();
    }
  });
});
