import { invalidQ } from '../core/errors.js';
import { roundSig, roundTo } from '../core/numbers.js';
import { DexPairs, fromDexScreener, fromGeckoTerminal, GtPools, type PoolPrice } from '../upstream/formats/dex-pools.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

/** DexScreener chain ids and their GeckoTerminal network ids. */
const CHAINS = {
  ethereum: 'eth',
  bsc: 'bsc',
  base: 'base',
  arbitrum: 'arbitrum',
  polygon: 'polygon_pos',
  optimism: 'optimism',
  avalanche: 'avax',
  solana: 'solana',
} as const;
type Chain = keyof typeof CHAINS;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Pools thinner than this quote prices nobody can trade at. */
const MIN_LIQUIDITY_USD = 10_000;
const THRESHOLD_PCT = 1;

export interface TokenQ {
  chain: Chain;
  address: string;
}

export function chainAddress(q: string): TokenQ {
  const expected = `<chain>:<token_address> with chain one of ${Object.keys(CHAINS).join(', ')}`;
  const example = 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
  const [chain = '', address = '', ...rest] = q.split(':');
  if (!Object.hasOwn(CHAINS, chain.toLowerCase()) || rest.length) throw invalidQ(expected, example, `"${chain}" is not a supported chain`);
  const evm = chain.toLowerCase() !== 'solana';
  if (!(evm ? EVM_ADDRESS : SOLANA_MINT).test(address))
    throw invalidQ(expected, example, evm ? 'the address must be 0x and 40 hex digits' : 'the address must be a base58 mint');
  // EVM addresses are case-insensitive; Solana mints are not.
  return { chain: chain.toLowerCase() as Chain, address: evm ? address.toLowerCase() : address };
}

/** Each DEX's deepest liquid pool; spreads run from the cheapest DEX to every other. */
export function toRows(pools: PoolPrice[]): Row[] {
  const deepest = new Map<string, PoolPrice>();
  for (const p of pools.filter((p) => p.liquidity_usd >= MIN_LIQUIDITY_USD)) {
    if ((deepest.get(p.dex)?.liquidity_usd ?? -1) < p.liquidity_usd) deepest.set(p.dex, p);
  }
  const byPrice = [...deepest.values()].sort((a, b) => a.price_usd - b.price_usd);
  const [buy, ...others] = byPrice;
  if (!buy || others.length === 0) throw noData('fewer than two DEXs have a liquid pool for this token');
  const spreads = others.reverse().map((sell) => {
    const spread = ((sell.price_usd - buy.price_usd) / buy.price_usd) * 100;
    return {
      buy_dex: buy.dex,
      buy_pair: buy.pair_address,
      buy_price_usd: roundSig(buy.price_usd, 8),
      buy_liquidity_usd: Math.round(buy.liquidity_usd),
      sell_dex: sell.dex,
      sell_pair: sell.pair_address,
      sell_price_usd: roundSig(sell.price_usd, 8),
      sell_liquidity_usd: Math.round(sell.liquidity_usd),
      spread_pct: roundTo(spread, 2),
      above_threshold: spread > THRESHOLD_PCT,
    };
  });
  const above = spreads.filter((s) => s.above_threshold);
  // No spread above 1% is an answer too: the widest spread says how far below the threshold it is.
  return above.length ? above : spreads.slice(0, 1);
}

/**
 * Rows: buy_dex, buy_pair, buy_price_usd, buy_liquidity_usd, sell_dex, sell_pair, sell_price_usd,
 * sell_liquidity_usd, spread_pct, above_threshold. Every spread above 1% (widest first), or the single
 * widest spread with above_threshold false when none is. Pools under $10k liquidity are ignored.
 */
export default defineSource<TokenQ>({
  type: 'cross-dex-arb',
  categories: ['crypto', 'trader', 'defi'],
  qShape: '<chain>:<token_address>',
  example: 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  desc: '`<chain>:<token_address>`; cross-exchange price spreads above 1%',
  parseQ: chainAddress,
  keyOf: ({ chain, address }) => `${chain}:${address}`,
  ttlSeconds: 30,
  deadlineMs: 5000,
  entityQ: (e) => (e.contracts?.ethereum ? `ethereum:${e.contracts.ethereum}` : undefined),
  upstreams: {
    dexscreener: async (token, { http, deadline }) =>
      toRows(fromDexScreener(token, await http.json(`/tokens/v1/${token.chain}/${token.address}`, DexPairs, { deadline }))),
    geckoterminal: async (token, { http, deadline }) =>
      toRows(
        fromGeckoTerminal(
          token,
          CHAINS[token.chain],
          await http.json(`/api/v2/networks/${CHAINS[token.chain]}/tokens/${token.address}/pools`, GtPools, { deadline }),
        ),
      ),
  },
});
