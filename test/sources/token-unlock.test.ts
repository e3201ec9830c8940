import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import { curatedData, curatedRows, DataFile, toRows, unlockSymbol } from '../../src/sources/token-unlock.js';
import { fromEmissions } from '../../src/upstream/formats/defillama-emissions.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('token-unlock', () => {
  it('counts cliff allocations only and accepts string timestamps', () => {
    const unlocks = fromEmissions({
      metadata: {
        unlockEvents: [
          {
            timestamp: '1800000000',
            cliffAllocations: [
              { recipient: 'Team', category: 'insiders', amount: 10 },
              { recipient: 'Team', category: 'insiders', amount: 5 },
            ],
          },
          { timestamp: 1800100000, cliffAllocations: [] },
          { timestamp: 1800200000 },
        ],
      },
    });
    expect(unlocks).toEqual([{ timestamp: 1800000000, amount: 15, recipients: ['Team'], categories: ['insiders'] }]);
  });

  it('keeps upcoming unlocks only, soonest first', () => {
    const rows = toRows(
      { symbol: 'ARB', name: 'Arbitrum' },
      [
        { timestamp: 30, amount: 1, recipients: [], categories: [] },
        { timestamp: 20, amount: 2, recipients: [], categories: [] },
        { timestamp: 5, amount: 3, recipients: [], categories: [] },
      ],
      10,
      100,
    );
    expect(rows.map((r) => r.unlock_at)).toEqual([20, 30]);
    expect(rows[0]!.pct_of_max_supply).toBe(2);
  });

  const cited = { publisher: 'Arbitrum Foundation', urls: ['https://docs.arbitrum.foundation/token-supply'], retrieved: '2026-11-20' };
  const fileOrigin = { publisher: 'svc maintainers', urls: ['https://defillama.com/unlocks'], retrieved: '2026-11-20' };
  const unlock = (unlock_at: number, valid_until: number) => ({
    symbol: 'ARB',
    unlock_at,
    amount_tokens: 5,
    pct_of_max_supply: null,
    recipients: ['Team'],
    categories: ['insiders'],
    origin: cited,
    valid_until,
  });

  it('serves a curated unlock with its origin, only while valid and still upcoming', () => {
    const file = {
      version: 2 as const,
      origin: fileOrigin,
      note: '',
      assets: [{ symbol: 'ARB', slug: 'arbitrum', name: 'Arbitrum' }],
      unlocks: [unlock(300, 1000), unlock(200, 100), unlock(50, 1000)],
    };
    expect(curatedRows(file, 'ARB', 150)).toEqual([
      {
        symbol: 'ARB',
        name: 'Arbitrum',
        unlock_at: 300,
        date: '1970-01-01',
        amount_tokens: 5,
        pct_of_max_supply: null,
        recipients: ['Team'],
        categories: ['insiders'],
        origin: cited,
        valid_until: 1000,
        source: 'curated: Arbitrum Foundation; https://docs.arbitrum.foundation/token-supply; retrieved 2026-11-20',
      },
    ]);
  });

  it('refuses a data file whose unlock lacks an origin or valid_until, and ships one without uncited rows', () => {
    const check = Compile(DataFile);
    const { origin: _o, ...uncited } = unlock(300, 1000);
    const { valid_until: _v, ...undated } = unlock(300, 1000);
    expect(check.Check({ version: 2, origin: fileOrigin, note: '', assets: [], unlocks: [unlock(300, 1000)] })).toBe(true);
    expect(check.Check({ version: 2, origin: fileOrigin, note: '', assets: [], unlocks: [uncited] })).toBe(false);
    expect(check.Check({ version: 2, origin: fileOrigin, note: '', assets: [], unlocks: [undated] })).toBe(false);
    expect(
      check.Check({
        version: 2,
        origin: fileOrigin,
        note: '',
        assets: [],
        unlocks: [{ ...unlock(300, 1000), origin: { ...cited, urls: ['from memory'] } }],
      }),
    ).toBe(false);
    expect(curatedData().unlocks.every((u) => u.origin.urls.every((url) => url.startsWith('https://')))).toBe(true);
    expect(check.Check({ version: 2, note: '', assets: [], unlocks: [] })).toBe(false);
    expect(() => unlockSymbol('A R B')).toThrow(/asset_symbol/);
  });
});

describe('token-unlock coverage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers for a token outside the hand-made map, found through CoinGecko’s coins of that symbol (regression: only ARB, STRK, APT)', async () => {
    const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'token-unlock', q: 'op', max_age: '0' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      source: 'defillama-datasets',
      preview: { symbol: 'OP', name: 'Optimism', unlock_at: 1796083200 },
    });
  });

  it('skips a file that is about another coin of the same name, and says when nothing covers the symbol', async () => {
    t.sim.serve({
      host: 'coingecko',
      path: '/api/v3/search',
      query: { query: 'OPX' },
      body: { coins: [{ id: 'optimism-x', name: 'Optimism', api_symbol: 'optimism-x', symbol: 'OPX', market_cap_rank: null }] },
    });
    const result = await t.deps.sources.run('token-unlock', 'OPX', { maxAgeS: 0 });
    t.sim.clearOverrides();
    expect(result).toMatchObject({ ok: false, error: 'no_data', message: expect.stringMatching(/no schedule for OPX/) });
  });
});
