import { invalidQ } from '../core/errors.js';
import { whyNot } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { parseUnixSeconds } from '../core/clock.js';
import { defineSource, type Row } from './define.js';
import { Stablecoins } from '../upstream/formats/defillama-stablecoins.js';
import { CoinMarkets } from '../upstream/formats/coingecko-markets.js';

const SYMBOL = /^[A-Z0-9]{2,12}$/;
const TOP = 5;

export function stableSymbol(q: string): string {
  const symbol = q.toUpperCase();
  if (!SYMBOL.test(symbol)) {
    const why = whyNot(q, 'a stablecoin symbol');
    throw invalidQ('<stablecoin_symbol> (2-12 letters or digits, e.g. USDT)', 'USDT', why);
  }
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

/** Only dollar pegs count: DefiLlama also lists EUR, gold and other pegs. */
export const fromDefiLlama = (raw: Stablecoins): Stable[] =>
  raw.peggedAssets.flatMap((a) => {
    const supply = a.circulating.peggedUSD;
    if (a.pegType !== 'peggedUSD' || typeof supply !== 'number') return [];
    const mechanism = a.pegMechanism ?? null;
    return [{ symbol: a.symbol.toUpperCase(), name: a.name, price: a.price ?? null, supply_usd: supply, mechanism }];
  });

/** CoinGecko's whole "USD Stablecoin" category, ranked by market cap (the closest it has to circulating supply). */
export const fromCoinGecko = (raw: CoinMarkets): Stable[] =>
  raw.map((c) => ({
    symbol: c.symbol.toUpperCase(),
    name: c.name,
    price: c.current_price,
    supply_usd: c.market_cap ?? 0,
    mechanism: null,
    ...(c.last_updated ? { as_of: parseUnixSeconds(c.last_updated) } : {}),
  }));

/** The asked coin first, then the rest of the five largest by supply; `rank` is the supply rank. */
export function toRows(symbol: string, stables: Stable[]): Row[] {
  const ranked = [...stables].sort((a, b) => b.supply_usd - a.supply_usd);
  const asked = ranked.findIndex((s) => s.symbol === symbol);
  if (asked < 0) throw noData(`no US-dollar stablecoin ${symbol} is listed`);
  const picks = [
    asked,
    ...ranked
      .slice(0, TOP)
      .map((_, i) => i)
      .filter((i) => i !== asked),
  ];
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
 * Rows: symbol, name, rank (by circulating supply among all dollar stablecoins DefiLlama lists, or by market cap among
 * CoinGecko's whole USD Stablecoin category on the fallback), price_usd, deviation_bps ((price − 1) × 10 000),
 * supply_usd, peg_mechanism, asked (true for the q coin, listed first).
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
    'defillama-stablecoins': async (symbol, { http, deadline }) => {
      const raw = await http.json<Stablecoins>('/stablecoins', Stablecoins, { deadline, query: { includePrices: true } });
      return toRows(symbol, fromDefiLlama(raw));
    },
    coingecko: async (symbol, { http, deadline }) => {
      const query = { vs_currency: 'usd', category: 'usd-stablecoin', order: 'market_cap_desc', per_page: 250, page: 1 };
      return toRows(symbol, fromCoinGecko(await http.json<CoinMarkets>('/api/v3/coins/markets', CoinMarkets, { deadline, query })));
    },
  },
});
