import { defineSource, type Row } from './define.js';
import { contractSource, sourceChecks, type Source } from './lib/contract-source.js';
import { evmKey, evmTargetQ, type EvmTarget } from './lib/evm-chains.js';
import { flag, goplusRisks, goplusToken, TOKEN_CHECKS, type TokenSecurity } from './lib/goplus.js';
import { riskScore } from './lib/risk-score.js';

const TOP_HOLDERS = 10;

/** GoPlus fractions ("0.05") as percentages, rounded to hundredths. */
const pct = (fraction: number) => Math.round(fraction * 10_000) / 100;
const pctOrNull = (fraction: string | undefined) => (fraction === undefined || fraction === '' ? null : pct(Number(fraction)));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Every field unknown; each upstream fills in what it can answer. */
const UNKNOWN = {
  token_name: null,
  token_symbol: null,
  is_honeypot: null,
  is_open_source: null,
  is_proxy: null,
  is_mintable: null,
  buy_tax_pct: null,
  sell_tax_pct: null,
  holder_count: null,
  top10_holder_pct: null,
  lp_locked_pct: null,
  dex_liquidity_usd: null,
  owner_address: null,
  creator_address: null,
};

const row = (target: EvmTarget, risks: string[], unknownChecks: string[], fields: Partial<Record<keyof typeof UNKNOWN, unknown>>): Row => ({
  chain: target.chain,
  address: target.address,
  ...riskScore(risks, unknownChecks),
  risks,
  unknown_checks: unknownChecks,
  ...UNKNOWN,
  ...fields,
});

export function fromGoplus(target: EvmTarget, t: TokenSecurity): Row {
  const { risks, unknown_checks } = goplusRisks(t);
  return row(target, risks, unknown_checks, {
    token_name: t.token_name ?? null,
    token_symbol: t.token_symbol ?? null,
    is_honeypot: flag(t.is_honeypot),
    is_open_source: flag(t.is_open_source),
    is_proxy: flag(t.is_proxy),
    is_mintable: flag(t.is_mintable),
    buy_tax_pct: pctOrNull(t.buy_tax),
    sell_tax_pct: pctOrNull(t.sell_tax),
    holder_count: t.holder_count ? Number(t.holder_count) : null,
    top10_holder_pct: t.holders?.length ? pct(sum(t.holders.slice(0, TOP_HOLDERS).map((h) => Number(h.percent)))) : null,
    lp_locked_pct: t.lp_holders?.length ? pct(sum(t.lp_holders.filter((h) => h.is_locked === 1).map((h) => Number(h.percent)))) : null,
    dex_liquidity_usd: t.dex?.length ? Math.round(sum(t.dex.map((d) => Number(d.liquidity)))) : null,
    owner_address: t.owner_address || null,
    creator_address: t.creator_address || null,
  });
}

/**
 * The fallback reads the verified source only: it settles "open source" and "proxy", and finds owner
 * powers by function name. A name scan cannot prove absence (USDT mints with `issue`), so every token
 * check it did not find stays unknown.
 */
export function fromSource(target: EvmTarget, s: Source): Row {
  const { verified, risks } = sourceChecks(s);
  const answered = new Set(['unverified_source', 'proxy', ...risks]);
  return row(
    target,
    risks,
    TOKEN_CHECKS.filter((c) => !answered.has(c)),
    {
      is_open_source: verified,
      is_proxy: s.Proxy === '1',
      is_mintable: risks.includes('mintable') || null,
    },
  );
}

/**
 * Rows (one): chain, address, risk_score (0-100, our weighting of the findings), risk_score_max (with every unknown check
 * counted as a risk), risk_level (low/medium/high, or unknown when the unknown checks could change it),
 * risks [names], unknown_checks [checks the upstream could not answer], token_name, token_symbol, is_honeypot,
 * is_open_source, is_proxy, is_mintable (true/false/null = unknown), buy_tax_pct, sell_tax_pct, holder_count,
 * top10_holder_pct, lp_locked_pct, dex_liquidity_usd, owner_address, creator_address. GoPlus answers all of them;
 * the Etherscan fallback only the source-level ones (the rest null).
 */
export default defineSource<EvmTarget>({
  type: 'token-risk',
  categories: ['security', 'crypto'],
  qShape: '<chain>:<contract_address>',
  example: 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7',
  desc: '`<chain>:<contract_address>`; token security scan',
  parseQ: evmTargetQ('<chain>:<contract_address>', 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7'),
  keyOf: evmKey,
  ttlSeconds: 1800,
  deadlineMs: 6000,
  entityQ: (e) => (e.contracts?.ethereum ? `ethereum:${e.contracts.ethereum}` : undefined),
  upstreams: {
    gopluslabs: async (target, { http, deadline }) => [fromGoplus(target, await goplusToken(http, target, deadline))],
    etherscan: async (target, { http, deadline }) => [fromSource(target, await contractSource(http, target, deadline))],
  },
});
