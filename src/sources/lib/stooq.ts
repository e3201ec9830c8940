import type { HostHttp } from '../../upstream/client.js';
import { noData } from '../../upstream/errors.js';
import { parseStooqQuote } from '../../upstream/formats/stooq-quote.js';
import type { Row } from '../define.js';

/** Yahoo's index symbols that Stooq spells differently; other `^` symbols are tried as they are. */
const STOOQ_INDEX: Record<string, string> = { '^GSPC': '^spx', '^IXIC': '^ndq', '^NDX': '^ndx', '^DJI': '^dji' };

/** `AAPL` → `aapl.us`, `^GSPC` → `^spx`; null for tickers of other markets (a Yahoo suffix such as `VOD.L`), not mapped here. */
export function stooqSymbol(ticker: string): string | null {
  if (ticker.startsWith('^')) return STOOQ_INDEX[ticker] ?? ticker.toLowerCase();
  return ticker.includes('.') || ticker.includes('=') ? null : `${ticker.toLowerCase()}.us`;
}

/** Unix seconds of a wall-clock date and time in `timeZone`. */
export function zonedUnixSeconds(date: string, time: string, timeZone: string): number {
  const asUtc = Date.parse(`${date}T${time}Z`);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    ...{ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' },
  }).formatToParts(new Date(asUtc));
  const at = Object.fromEntries(parts.map((p) => [p.type, p.value]));
  const offset = Date.parse(`${at.year}-${at.month}-${at.day}T${at.hour}:${at.minute}:${at.second}Z`) - asUtc;
  return Math.floor((asUtc - offset) / 1000);
}

/**
 * The last trade of a US ticker (USD) or an index (points, no currency) from Stooq. Stooq stamps quotes in Warsaw
 * time (a US close at 16:00 New York reads 22:00) and gives no previous close, so the change is unknown.
 */
export async function stooqQuote(http: HostHttp, ticker: string, deadline: number): Promise<Row> {
  const symbol = stooqSymbol(ticker);
  if (!symbol) throw noData(`Stooq quotes are mapped for US tickers and indices only, not ${ticker}`);
  const quote = parseStooqQuote(await http.text(`/q/l/?s=${encodeURIComponent(symbol)}&f=sd2t2ohlcv&h&e=csv`, { deadline }));
  if (!quote) throw noData(`Stooq has no quote for ${ticker}`);
  return {
    symbol: ticker,
    price: quote.close,
    currency: ticker.startsWith('^') ? null : 'USD',
    open: quote.open,
    high: quote.high,
    low: quote.low,
    prev_close: null,
    change: null,
    change_pct: null,
    volume: quote.volume,
    exchange: null,
    as_of: zonedUnixSeconds(quote.date, quote.time, 'Europe/Warsaw'),
    market_state: null,
  };
}
