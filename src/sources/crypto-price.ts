import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

const MAX_IDS = 50;
const COIN_ID = /^[a-z0-9][a-z0-9-]{0,79}$/;

/** `bitcoin,ethereum` → CoinGecko ids (lowercase ids, not tickers). */
export function coinIds(q: string): string[] {
  const ids = q.toLowerCase().split(',').map((s) => s.trim());
  if (!q || ids.some((id) => !COIN_ID.test(id))) throw invalidQ('<coin_id>[,<coin_id>...] (CoinGecko ids such as bitcoin)', 'bitcoin,ethereum');
  if (ids.length > MAX_IDS) throw invalidQ(`at most ${MAX_IDS} comma-separated coin ids`, 'bitcoin,ethereum');
  return [...new Set(ids)];
}

const Price = Type.Object({
  usd: Type.Number(),
  usd_market_cap: Type.Optional(Type.Number()),
  usd_24h_vol: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  usd_24h_change: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  last_updated_at: Type.Optional(Type.Integer()),
});
const SimplePrice = Type.Record(Type.String(), Price);
type SimplePrice = Type.Static<typeof SimplePrice>;

/** CoinGecko silently omits unknown ids, so rows follow the asked order and skip the missing. */
export function toRows(ids: string[], raw: SimplePrice): Row[] {
  return ids.flatMap((coin) => {
    const p = raw[coin];
    if (!p) return [];
    return [{
      coin,
      usd: p.usd,
      market_cap_usd: p.usd_market_cap ?? null,
      volume_24h_usd: p.usd_24h_vol ?? null,
      change_24h_pct: p.usd_24h_change ?? null,
      ...(p.last_updated_at ? { as_of: p.last_updated_at } : {}),
    }];
  });
}

export default defineSource({
  type: 'crypto-price',
  categories: ['finance', 'crypto'],
  qShape: '<coin_id>[,<coin_id>...]',
  example: 'bitcoin,ethereum',
  desc: '`<coin_id>[,<coin_id>...]`; spot price in USD; comma-separated ids are used in bundles',
  parseQ: coinIds,
  keyOf: (ids) => ids.join(','),
  ttlSeconds: 30,
  deadlineMs: 4000,
  entityQ: (e) => e.ids.coingecko,
  upstreams: {
    coingecko: async (ids, { http, deadline }) => {
      const raw = await http.json<SimplePrice>('/api/v3/simple/price', SimplePrice, {
        deadline,
        query: { ids: ids.join(','), vs_currencies: 'usd', include_market_cap: true, include_24hr_vol: true, include_24hr_change: true, include_last_updated_at: true },
      });
      const rows = toRows(ids, raw);
      if (rows.length === 0) throw noData('CoinGecko knows none of these coin ids');
      return rows;
    },
  },
});
