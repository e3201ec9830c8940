import { loadDataset } from '../../entities/dataset.js';
import { Reply, type Route, type WorldRequest } from './types.js';

/**
 * What the demo world lists: the entity graph's tickers and Yahoo symbols, a few index funds, and currency pairs of the
 * ECB's reference currencies. A ticker outside it is answered as the real upstreams answer an unknown one (Yahoo's 404
 * "No data found", Finnhub's zeros, Stooq's N/D), never with an invented stock.
 */
const INDEX_FUNDS = ['SPY', 'QQQ', 'DIA', 'IWM', 'VOO', 'VTI'];
/** The currencies of the ECB's reference rates (what Frankfurter serves). */
export const ECB_CURRENCIES =
  'AUD BGN BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD ZAR'.split(' ');
const CURRENCIES = new Set(ECB_CURRENCIES);

let listed: Set<string> | undefined;
const listings = (): Set<string> =>
  (listed ??= new Set([
    ...INDEX_FUNDS,
    ...loadDataset().entities.flatMap((e) => [e.type === 'equity' ? e.ids.ticker : undefined, e.ids.yahoo].filter((s) => s !== undefined)),
  ]));

/** Whether Yahoo knows `symbol` in the demo world (a listed ticker, index or future, or a pair of two ECB currencies). */
export function isListed(symbol: string): boolean {
  const fx = /^([A-Z]{3})([A-Z]{3})=X$/.exec(symbol);
  return fx ? CURRENCIES.has(fx[1]!) && CURRENCIES.has(fx[2]!) : listings().has(symbol);
}

/** Finnhub and Stooq spell US tickers their own way; an unlisted one gets their "unknown" answer, a listed one the fixture's. */
const finnhubUnknown = (empty: unknown) => (req: WorldRequest) => (isListed(req.params.get('symbol') ?? '') ? undefined : empty);

function stooqUnknown(req: WorldRequest): unknown {
  const symbol = (req.params.get('s') ?? '').toUpperCase();
  const ticker = symbol.endsWith('.US') ? symbol.slice(0, -3) : symbol;
  if (ticker.startsWith('^') || isListed(ticker)) return undefined;
  return new Reply(200, `Symbol,Date,Time,Open,High,Low,Close,Volume\r\n${symbol},N/D,N/D,N/D,N/D,N/D,N/D,N/D\r\n`);
}

export const LISTING_ROUTES: Route[] = [
  { host: 'finnhub', path: /^\/api\/v1\/quote$/, answer: finnhubUnknown({ c: 0, d: null, dp: null, h: 0, l: 0, o: 0, pc: 0, t: 0 }) },
  { host: 'finnhub', path: /^\/api\/v1\/stock\/profile2$/, answer: finnhubUnknown({}) },
  { host: 'stooq', path: /^\/q\/l\/$/, answer: stooqUnknown },
];
