import Type from 'typebox';
import { whyNot } from './lib/q.js';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { LenientArray } from '../upstream/validate.js';

const SYMBOL = /^[A-Z0-9.+$]{1,15}$/;
/** Pools below this TVL are dust whose APY swings wildly; DefiLlama flags outliers separately. */
const MIN_TVL_USD = 1_000_000;
const TOP = 5;

export function tokenSymbol(q: string): string {
  const symbol = q.toUpperCase();
  if (!SYMBOL.test(symbol)) throw invalidQ('<token_symbol> (1-15 letters or digits, e.g. USDC)', 'USDC', whyNot(q, 'a token symbol'));
  return symbol;
}

const num = Type.Union([Type.Number(), Type.Null()]);
/** Every pool DefiLlama tracks (15,000 and more): one malformed pool is left out and counted, not fatal. */
const Pools = Type.Object({
  status: Type.String(),
  data: LenientArray(
    Type.Object({
      pool: Type.String(),
      chain: Type.String(),
      project: Type.String(),
      symbol: Type.String(),
      tvlUsd: Type.Number(),
      apy: Type.Optional(num),
      apyBase: Type.Optional(num),
      apyReward: Type.Optional(num),
      stablecoin: Type.Optional(Type.Boolean()),
      ilRisk: Type.Optional(Type.String()),
      exposure: Type.Optional(Type.String()),
      outlier: Type.Optional(Type.Boolean()),
    }),
  ),
});
type Pools = Type.Static<typeof Pools>;

/** Pool symbols are hyphen-joined tokens (`USDC-WETH`); a pool qualifies when one of them is the token. */
export function toRows(symbol: string, raw: Pools): Row[] {
  const pools = raw.data
    .filter((p) => p.symbol.toUpperCase().split('-').includes(symbol))
    .filter((p) => typeof p.apy === 'number' && p.tvlUsd >= MIN_TVL_USD && !p.outlier)
    .sort((a, b) => b.apy! - a.apy!)
    .slice(0, TOP);
  if (pools.length === 0) throw noData(`DefiLlama has no pool over $1M TVL holding ${symbol}`);
  return pools.map((p, i) => ({
    rank: i + 1,
    pool_id: p.pool,
    project: p.project,
    chain: p.chain,
    symbol: p.symbol,
    apy_pct: p.apy,
    apy_base_pct: p.apyBase ?? null,
    apy_reward_pct: p.apyReward ?? null,
    tvl_usd: p.tvlUsd,
    stablecoin: p.stablecoin ?? null,
    il_risk: p.ilRisk ?? null,
    exposure: p.exposure ?? null,
    url: `https://defillama.com/yields/pool/${p.pool}`,
  }));
}

/**
 * Rows: rank (1 = the top pool), pool_id, project, chain, symbol, apy_pct (DefiLlama reports APY in
 * percent, base + reward), apy_base_pct, apy_reward_pct, tvl_usd, stablecoin, il_risk, exposure, url.
 * The top 5 pools over $1M TVL that hold the token, highest yield first.
 */
export default defineSource<string>({
  type: 'defi-yield',
  categories: ['finance', 'crypto'],
  qShape: '<token_symbol>',
  example: 'USDC',
  desc: '`<token_symbol>`; top pool by APR',
  parseQ: tokenSymbol,
  keyOf: (symbol) => symbol,
  // DefiLlama recomputes yields about hourly and /pools is several MB: fetch it rarely.
  ttlSeconds: 1800,
  deadlineMs: 6000,
  entityQ: (e) => (e.type === 'crypto' || e.type === 'stablecoin' ? e.ids.symbol : undefined),
  upstreams: {
    'defillama-yields': async (symbol, { http, deadline }) => toRows(symbol, await http.json<Pools>('/pools', Pools, { deadline })),
  },
});
