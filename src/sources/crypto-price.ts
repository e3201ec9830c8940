import { SimplePrice } from '../upstream/formats/coingecko-simple-price.js';
import { Ticker24h } from '../upstream/formats/binance-ticker.js';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { binancePairOf, exactEntities } from './lib/entities.js';
import { defineSource, type Row } from './define.js';
import { bybit, coinbase, kraken, okx } from './lib/spot-tickers.js';

const MAX_IDS = 50;
const COIN_ID = /^[a-z0-9][a-z0-9-]{0,79}$/;
const COIN_FORMS = ['<coin_id>[,<coin_id>...] (CoinGecko ids such as bitcoin)', 'symbols such as BTC', 'Binance pairs such as BTCUSDT'];

/** A coin as CoinGecko names it: its id, or the id of the coin an entity id, symbol, Binance pair or name names exactly. */
function coinId(item: string): string {
  const coins = exactEntities(item).filter((e) => (e.type === 'crypto' || e.type === 'stablecoin') && e.ids.coingecko);
  const known = coins.find((e) => e.ids.coingecko === item.toLowerCase()) ?? coins[0];
  return known?.ids.coingecko ?? item.toLowerCase();
}

/** `bitcoin,ETH,svc-ent:cr.solana` → CoinGecko ids, in order, once each. */
export function coinIds(q: string): string[] {
  const ids = q.split(',').map((s) => coinId(s.trim()));
  if (!q || ids.some((id) => !COIN_ID.test(id)))
    throw invalidQ(
      '<coin_id>[,<coin_id>...]: CoinGecko ids (bitcoin), symbols (BTC) or entity ids (svc-ent:cr.bitcoin)',
      'bitcoin,ethereum',
    );
  if (ids.length > MAX_IDS) throw invalidQ(`at most ${MAX_IDS} comma-separated coin ids`, 'bitcoin,ethereum');
  return [...new Set(ids)];
}

/** CoinGecko silently omits unknown ids, so rows follow the asked order and skip the missing. */
export function toRows(ids: string[], raw: SimplePrice): Row[] {
  return ids.flatMap((coin) => {
    const p = raw[coin];
    if (!p) return [];
    return [
      {
        coin,
        usd: p.usd,
        price: p.usd,
        quote: 'USD',
        market_cap_usd: p.usd_market_cap ?? null,
        volume_24h_usd: p.usd_24h_vol ?? null,
        change_24h_pct: p.usd_24h_change ?? null,
        ...(p.last_updated_at ? { as_of: p.last_updated_at } : {}),
      },
    ];
  });
}

/** Coins with a Binance USDT pair, in the asked order. */
export const binancePairs = (ids: string[]): { coin: string; pair: string }[] =>
  ids.flatMap((coin) => {
    const pair = binancePairOf(coin);
    return pair ? [{ coin, pair }] : [];
  });

/** Binance quotes in USDT, a stablecoin that is not USD: the row says so and has no `usd` field; no market cap either. */
export function fromBinance(pairs: { coin: string; pair: string }[], raw: Ticker24h): Row[] {
  const bySymbol = new Map(raw.map((t) => [t.symbol, t]));
  return pairs.flatMap(({ coin, pair }) => {
    const t = bySymbol.get(pair);
    if (!t) return [];
    return [
      {
        coin,
        price: Number(t.lastPrice),
        quote: 'USDT',
        market_cap_usd: null,
        volume_24h_usdt: Number(t.quoteVolume),
        change_24h_pct: Number(t.priceChangePercent),
        as_of: Math.floor(t.closeTime / 1000),
      },
    ];
  });
}

/**
 * Rows: coin (CoinGecko id), price, quote (USD), usd (= price), market_cap_usd, volume_24h_usd, change_24h_pct, as_of,
 * and `corroboration` (issue 37): every source is asked at once, the price is the median of the USD sources that agree
 * (CoinGecko, Kraken, Coinbase), and the USDT books (Binance, OKX, Bybit) are listed apart as `quote_mismatch`. The other
 * fields come from the first source used, in this order; when no USD source answers the row is priced in USDT, no `usd`.
 */
export default defineSource({
  type: 'crypto-price',
  categories: ['finance', 'crypto'],
  qShape: '<coin_id>[,<coin_id>...]',
  qForms: COIN_FORMS,
  namesInstrument: true,
  example: 'bitcoin,ethereum',
  desc: '`<coin_id>[,<coin_id>...]`; spot price in USD; comma-separated ids are used in bundles',
  parseQ: coinIds,
  keyOf: (ids) => ids.join(','),
  ttlSeconds: 30,
  deadlineMs: 4000,
  entityQ: (e) => e.ids.coingecko,
  corroboration: { item: 'coin', rule: { quorum: 2, outlierBps: 50, staleAfterS: 120, quote: 'USD' } },
  upstreams: {
    coingecko: async (ids, { http, deadline }) => {
      const raw = await http.json<SimplePrice>('/api/v3/simple/price', SimplePrice, {
        deadline,
        query: {
          ids: ids.join(','),
          vs_currencies: 'usd',
          include_market_cap: true,
          include_24hr_vol: true,
          include_24hr_change: true,
          include_last_updated_at: true,
        },
      });
      const rows = toRows(ids, raw);
      if (rows.length === 0) throw noData('CoinGecko knows none of these coin ids');
      return rows;
    },
    binance: async (ids, { http, deadline }) => {
      const pairs = binancePairs(ids);
      if (pairs.length === 0) throw noData('none of these coins has a Binance USDT pair');
      const raw = await http.json<Ticker24h>('/api/v3/ticker/24hr', Ticker24h, {
        deadline,
        query: { symbols: JSON.stringify(pairs.map((p) => p.pair)) },
      });
      const rows = fromBinance(pairs, raw);
      if (rows.length === 0) throw noData('Binance answered without these pairs');
      return rows;
    },
    kraken,
    'coinbase-exchange': coinbase,
    okx,
    bybit,
  },
});
