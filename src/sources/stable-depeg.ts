import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { usdStablecoins } from './lib/entities.js';
import { defineSource, type Row } from './define.js';

const SYMBOL = /^[A-Z0-9]{2,12}$/;
const TOP = 5;

export function stableSymbol(q: string): string {
  const symbol = q.toUpperCase();
  if (!SYMBOL.test(symbol)) throw invalidQ('<stablecoin_symbol> (2-12 letters or digits, e.g. USDT)', 'USDT', q ? `"${q}" is not a stablecoin symbol` : 'q is required');
  return symbol;
}

/** One stablecoin as both upstreams describe it; `supply_usd` ranks the top 5. */
export interface Stable {
  symbol: string;
  name: string;
  price: number | null;
  supply_usd: number;
  mechanism: string | null;
  as_of?: number;
}

const Stablecoins = Type.Object({
  peggedAssets: Type.Array(
    Type.Object({
      name: Type.String(),
      symbol: Type.String(),
      pegType: Type.String(),
      pegMechanism: Type.Optional(Type.String()),
      circulating: Type.Record(Type.String(), Type.Number()),
      price: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    }),
  ),
});
const SimplePrice = Type.Record(Type.String(), Type.Object({ usd: Type.Number(), usd_market_cap: Type.Optional(Type.Number()), last_updated_at: Type.Optional(Type.Integer()) }));

/** Only dollar pegs count: DefiLlama also lists EUR, gold and other pegs. */
export const fromDefiLlama = (raw: Type.Static<typeof Stablecoins>): Stable[] =>
  raw.peggedAssets.flatMap((a) =>
    a.pegType === 'peggedUSD' && typeof a.circulating.peggedUSD === 'number'
      ? [{ symbol: a.symbol.toUpperCase(), name: a.name, price: a.price ?? null, supply_usd: a.circulating.peggedUSD, mechanism: a.pegMechanism ?? null }]
      : [],
  );

export const fromCoinGecko = (raw: Type.Static<typeof SimplePrice>): Stable[] =>
  usdStablecoins().flatMap((e) => {
    const p = raw[e.ids.coingecko!];
    return p ? [{ symbol: e.ids.symbol!.toUpperCase(), name: e.name, price: p.usd, supply_usd: p.usd_market_cap ?? 0, mechanism: null, ...(p.last_updated_at ? { as_of: p.last_updated_at } : {}) }] : [];
  });

/** The asked coin first, then the rest of the five largest by supply; `rank` is the supply rank. */
export function toRows(symbol: string, stables: Stable[]): Row[] {
  const ranked = [...stables].sort((a, b) => b.supply_usd - a.supply_usd);
  const asked = ranked.findIndex((s) => s.symbol === symbol);
  if (asked < 0) throw noData(`no US-dollar stablecoin ${symbol} is listed`);
  const picks = [asked, ...ranked.slice(0, TOP).map((_, i) => i).filter((i) => i !== asked)];
  return picks.map((i) => {
    const s = ranked[i]!;
    return {
      symbol: s.symbol,
      name: s.name,
      rank: i + 1,
      price_usd: s.price,
      deviation_bps: s.price === null ? null : Math.round((s.price - 1) * 100_000) / 10,
      supply_usd: s.supply_usd,
      peg_mechanism: s.mechanism,
      asked: i === asked,
      ...(s.as_of ? { as_of: s.as_of } : {}),
    };
  });
}

/**
 * Rows: symbol, name, rank (by circulating supply, or market cap on the fallback), price_usd,
 * deviation_bps ((price − 1) × 10 000), supply_usd, peg_mechanism, asked (true for the q coin, listed first).
 */
export default defineSource<string>({
  type: 'stable-depeg',
  categories: ['crypto', 'trader', 'stables'],
  qShape: '<stablecoin_symbol>',
  example: 'USDT',
  desc: '`<stablecoin_symbol>`; peg deviation versus 1.00 USD for the top 5 stablecoins',
  parseQ: stableSymbol,
  keyOf: (symbol) => symbol,
  ttlSeconds: 300,
  deadlineMs: 5000,
  entityQ: (e) => (e.type === 'stablecoin' ? e.ids.symbol : undefined),
  upstreams: {
    'defillama-stablecoins': async (symbol, { http, deadline }) =>
      toRows(symbol, fromDefiLlama(await http.json('/stablecoins', Stablecoins, { deadline, query: { includePrices: true } }))),
    coingecko: async (symbol, { http, deadline }) => {
      const ids = usdStablecoins().map((e) => e.ids.coingecko).join(',');
      const raw = await http.json<Type.Static<typeof SimplePrice>>('/api/v3/simple/price', SimplePrice, {
        deadline,
        query: { ids, vs_currencies: 'usd', include_market_cap: true, include_last_updated_at: true },
      });
      return toRows(symbol, fromCoinGecko(raw));
    },
  },
});
