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

/** CoinGecko's order is the trending rank (score 0 = top). */
export function fromCoinGecko(raw: Type.Static<typeof Trending>): Row[] {
  if (!raw.coins.length) throw noData('CoinGecko lists no trending coins');
  return raw.coins.map(({ item }) => ({
    rank: item.score + 1,
    coin_id: item.id,
    symbol: item.symbol,
    name: item.name,
    market_cap_rank: item.market_cap_rank,
    price_usd: item.data?.price ?? null,
    change_24h_pct: item.data?.price_change_percentage_24h?.usd ?? null,
  }));
}

/** GeckoTerminal trends DEX pools, not coins: each row names the pool and its base token's price. */
export function fromGeckoTerminal(raw: Type.Static<typeof Pools>): Row[] {
  if (!raw.data.length) throw noData('GeckoTerminal lists no trending pools');
  return raw.data.map((p, i) => ({
    rank: i + 1,
    coin_id: null,
    symbol: p.attributes.name.split(' / ')[0] ?? p.attributes.name,
    name: p.attributes.name,
    market_cap_rank: null,
    price_usd: num(p.attributes.base_token_price_usd),
    change_24h_pct: num(p.attributes.price_change_percentage?.h24),
    pool_address: p.attributes.address,
    volume_24h_usd: num(p.attributes.volume_usd?.h24),
  }));
}

/** Rows: rank, coin_id, symbol, name, market_cap_rank, price_usd, change_24h_pct. */
export default defineSource({
  type: 'crypto-trending',
  categories: ['finance', 'crypto'],
  qShape: '',
  example: '',
  desc: 'empty; trending coins of the last hour',
  parseQ: noQ,
  ttlSeconds: 300,
  deadlineMs: 4000,
  upstreams: {
    coingecko: async (_q, { http, deadline }) => fromCoinGecko(await http.json('/api/v3/search/trending', Trending, { deadline })),
    geckoterminal: async (_q, { http, deadline }) =>
      fromGeckoTerminal(await http.json('/api/v2/networks/trending_pools', Pools, { deadline })),
  },
});
