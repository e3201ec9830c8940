import { csvRecords } from './csv.js';
import { UpstreamError } from '../errors.js';

/**
 * Stooq's quote CSV (`/q/l/?s=<symbol>&f=sd2t2ohlcv&h&e=csv`): a header and one line per symbol,
 * `Symbol,Date,Time,Open,High,Low,Close,Volume`, every field `N/D` for a symbol it does not know. Stooq answers some
 * clients with an HTML challenge and an exhausted quota with a sentence, both with HTTP 200.
 */
export interface StooqQuote {
  symbol: string;
  date: string;
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

const numberOr = (text: string | undefined): number | null => (text === undefined || text === 'N/D' || text === '' ? null : Number(text));

/** The quote, or null when Stooq has none for the symbol. */
export function parseStooqQuote(text: string): StooqQuote | null {
  if (/exceeded the daily hits limit/i.test(text)) throw new UpstreamError('upstream_rate_limited', 'Stooq: daily hits limit exceeded');
  if (!text.trimStart().startsWith('Symbol,'))
    throw new UpstreamError('upstream_bad_response', 'Stooq answered with a page, not its quote CSV');
  const [quote] = csvRecords(text, 'Stooq');
  const close = numberOr(quote?.Close);
  if (!quote || close === null || !quote.Date || !quote.Time) return null;
  return {
    symbol: quote.Symbol ?? '',
    date: quote.Date,
    time: quote.Time,
    open: numberOr(quote.Open) ?? close,
    high: numberOr(quote.High) ?? close,
    low: numberOr(quote.Low) ?? close,
    close,
    volume: numberOr(quote.Volume),
  };
}
