import { invalidQ } from '../../core/errors.js';
import { roundTo } from '../../core/numbers.js';

/** Shared q parsers; each throws a 400 that states the expected shape and an example. */

export interface LatLon {
  lat: number;
  lon: number;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

export function latLon(q: string): LatLon {
  const expected = '<lat>,<lon> with lat in [-90, 90] and lon in [-180, 180]';
  const parts = q.split(',').map((s) => s.trim());
  if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p))) throw invalidQ(expected, '40.71,-74.01');
  const [lat, lon] = parts.map(Number) as [number, number];
  if (Math.abs(lat) > 90) throw invalidQ(expected, '40.71,-74.01', `latitude ${lat} is out of range`);
  if (Math.abs(lon) > 180) throw invalidQ(expected, '40.71,-74.01', `longitude ${lon} is out of range`);
  return { lat, lon };
}

/** Coordinates rounded to 4 decimals (~11 m): the cache key, and what upstreams ask for. */
export const latLonKey = ({ lat, lon }: LatLon): string => `${roundTo(lat, 4)},${roundTo(lon, 4)}`;

/** For types that take no q: anything but an empty string is a mistake worth telling. */
export function noQ(q: string): string {
  if (q !== '') throw invalidQ('empty (this type takes no q)', '');
  return '';
}

/** One of a fixed list (case-insensitive); the 400 lists the allowed values. */
export function oneOf<T extends string>(allowed: readonly T[], shape: string, normalize: (s: string) => string = (s) => s.toUpperCase()) {
  const byNormal = new Map(allowed.map((a) => [normalize(a), a]));
  return (q: string): T => {
    const hit = byNormal.get(normalize(q));
    if (!hit) {
      const error = invalidQ(`${shape}, one of: ${allowed.join(', ')}`, allowed[0]!, whyNot(q, 'allowed'));
      error.details!.allowed = [...allowed];
      throw error;
    }
    return hit;
  };
}

const BINANCE_QUOTE = /(USDT|USDC|FDUSD|BTC|ETH)$/;

/** `BTC`, `btc` or `BTCUSDT` → a Binance pair (USDT unless the q names its quote). */
export function binancePair(q: string): string {
  const symbol = q.trim().toUpperCase();
  if (!/^[A-Z0-9]{2,12}$/.test(symbol)) throw invalidQ('<asset_symbol> such as BTC, or a Binance pair such as BTCUSDT', 'BTC');
  return BINANCE_QUOTE.test(symbol) && symbol.length > 5 ? symbol : `${symbol}USDT`;
}

/** The quote currency of a pair `binancePair` built: `BTCUSDT` → USDT, `ETHBTC` → BTC. */
export const binanceQuote = (pair: string): string => BINANCE_QUOTE.exec(pair)![1]!;

/** A stock ticker as Yahoo spells it (`BRK-B`, `VOD.L`, `GC=F`), or an index with its leading caret (`^GSPC`). */
export function stockTicker(q: string): string {
  const ticker = q.trim().toUpperCase();
  if (!/^\^?[A-Z0-9][A-Z0-9.\-=]{0,14}$/.test(ticker)) throw invalidQ('<ticker> such as AAPL, BRK-B or the index ^GSPC', 'AAPL');
  return ticker;
}

/** `EUR:USD`, `EUR/USD` or `EURUSD` (any case) → ['EUR', 'USD']. */
export function currencyPair(q: string): [string, string] {
  const match = /^([A-Za-z]{3})[:/]?([A-Za-z]{3})$/.exec(q.trim());
  if (!match) throw invalidQ('<base>:<symbol> ISO 4217 currency codes', 'EUR:USD');
  return [match[1]!.toUpperCase(), match[2]!.toUpperCase()];
}

/** The reason a q failed, for `invalidQ`: the q quoted with what it is not, or that it is missing. */
export const whyNot = (q: string, what: string): string => (q ? `"${q}" is not ${what}` : 'q is required');
