import Type from 'typebox';
import { noQ } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

const Trending = Type.Object({
  coins: Type.Array(
    Type.Object({
      item: Type.Object({
        id: Type.String(),
        name: Type.String(),
        symbol: Type.String(),
        market_cap_rank: Type.Union([Type.Integer(), Type.Null()]),
        score: Type.Integer(),
        data: Type.Optional(
          Type.Object({
            price: Type.Optional(Type.Number()),
            price_change_percentage_24h: Type.Optional(Type.Object({ usd: Type.Optional(Type.Number()) })),
            /** Formatted for display: `"$206,540,011"`. */
            total_volume: Type.Optional(Type.String()),
          }),
        ),
      }),
    }),
  ),
});
const Pools = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      attributes: Type.Object({
        name: Type.String(),
        address: Type.String(),
        base_token_price_usd: Type.Union([Type.String(), Type.Null()]),
        price_change_percentage: Type.Optional(Type.Object({ h24: Type.Optional(Type.Union([Type.String(), Type.Null()])) })),
        volume_usd: Type.Optional(Type.Object({ h24: Type.Optional(Type.Union([Type.String(), Type.Null()])) })),
      }),
    }),
  ),
});

const num = (s: string | null | undefined) => (s === null || s === undefined || s === '' ? null : Number(s));
/** `"$206,540,011"` → 206540011; anything else → null. */
const dollars = (s: string | undefined) => (s && /^\$[\d,]+(\.\d+)?$/.test(s) ? Number(s.slice(1).replaceAll(',', '')) : null);

/** What ranks a row: CoinGecko's searches over 24 hours, or GeckoTerminal's mix of page visits and on-chain activity. */
const BY_SEARCHES = 'coingecko_searches_24h';
const BY_ENGAGEMENT = 'geckoterminal_engagement_and_activity';

/** CoinGecko's order is the trending rank (score 0 = top). */
export function fromCoinGecko(raw: Type.Static<typeof Trending>): Row[] {
  if (!raw.coins.length) throw noData('CoinGecko lists no trending coins');
  return raw.coins.map(({ item }) => ({
    rank: item.score + 1,
    kind: 'coin',
    trending_by: BY_SEARCHES,
    coin_id: item.id,
    symbol: item.symbol,
    name: item.name,
    market_cap_rank: item.market_cap_rank,
    price_usd: item.data?.price ?? null,
    change_24h_pct: item.data?.price_change_percentage_24h?.usd ?? null,
    volume_24h_usd: dollars(item.data?.total_volume),
    pool_address: null,
  }));
}

/** GeckoTerminal trends DEX pools, not coins: each row is marked a pool, named by its pair, priced by its base token. */
export function fromGeckoTerminal(raw: Type.Static<typeof Pools>): Row[] {
  if (!raw.data.length) throw noData('GeckoTerminal lists no trending pools');
  return raw.data.map((p, i) => ({
    rank: i + 1,
    kind: 'pool',
    trending_by: BY_ENGAGEMENT,
    coin_id: null,
    symbol: p.attributes.name.split(' / ')[0] ?? p.attributes.name,
    name: p.attributes.name,
    market_cap_rank: null,
    price_usd: num(p.attributes.base_token_price_usd),
    change_24h_pct: num(p.attributes.price_change_percentage?.h24),
    volume_24h_usd: num(p.attributes.volume_usd?.h24),
    pool_address: p.attributes.address,
  }));
}

/**
 * Rows (one shape from either upstream): rank, kind (`coin`, or `pool` from the fallback), trending_by (what ranks it:
 * `coingecko_searches_24h`, or `geckoterminal_engagement_and_activity` for pools), coin_id (null for pools), symbol (a
 * pool's base token), name (a pool's pair), market_cap_rank (null for pools), price_usd (a pool's base token price),
 * change_24h_pct, volume_24h_usd, pool_address (null for coins).
 */
export default defineSource({
  type: 'crypto-trending',
  categories: ['finance', 'crypto'],
  qShape: '',
  example: '',
  desc:
    'empty; the coins most searched on CoinGecko over the last 24 hours (its list refreshes every 10 minutes); ' +
    'when CoinGecko fails, the DEX pools trending on GeckoTerminal, each marked kind: pool',
  parseQ: noQ,
  ttlSeconds: 300,
  deadlineMs: 4000,
  upstreams: {
    coingecko: async (_q, { http, deadline }) => fromCoinGecko(await http.json('/api/v3/search/trending', Trending, { deadline })),
    geckoterminal: async (_q, { http, deadline }) =>
      fromGeckoTerminal(await http.json('/api/v2/networks/trending_pools', Pools, { deadline })),
  },
});
