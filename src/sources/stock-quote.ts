import Type from 'typebox';
import { roundTo } from '../core/numbers.js';
import { stockTicker } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { type YahooChart, marketState } from '../upstream/formats/yahoo-chart.js';
import { unixSeconds } from '../core/clock.js';
import { defineSource, type Row } from './define.js';
import { stooqQuote } from './lib/stooq.js';
import { yahooChart, yahooLast } from './lib/yahoo-last.js';

const Finnhub = Type.Object({
  c: Type.Number(),
  d: Type.Union([Type.Number(), Type.Null()]),
  dp: Type.Union([Type.Number(), Type.Null()]),
  h: Type.Number(),
  l: Type.Number(),
  o: Type.Number(),
  pc: Type.Number(),
  t: Type.Integer(),
});
type Finnhub = Type.Static<typeof Finnhub>;
/** Finnhub `/api/v1/stock/profile2`: the listing's currency and exchange; `{}` for symbols it has no profile of. */
const Profile = Type.Object({ currency: Type.Optional(Type.String()), exchange: Type.Optional(Type.String()) });
type Profile = Type.Static<typeof Profile>;

/** Yahoo's 5-day daily chart: the last bar is today; the previous close comes from the bar before it. */
export function fromYahoo(raw: YahooChart, nowS: number): Row[] {
  const { symbol, price, currency, as_of } = yahooLast(raw);
  const r = raw.chart.result![0]!;
  const q = r.indicators.quote[0];
  const closes = (q?.close ?? []).filter((c): c is number => c !== null);
  const prev = closes.length >= 2 ? closes[closes.length - 2]! : (r.meta.chartPreviousClose ?? null);
  const last = (a: (number | null)[] | undefined) => a?.filter((v): v is number => v !== null).at(-1) ?? null;
  return [
    {
      symbol,
      price,
      currency,
      open: last(q?.open),
      high: last(q?.high),
      low: last(q?.low),
      prev_close: prev,
      change: prev === null ? null : roundTo(price - prev, 4),
      change_pct: prev === null ? null : roundTo(((price - prev) / prev) * 100, 4),
      volume: last(q?.volume),
      exchange: r.meta.exchangeName ?? null,
      as_of,
      market_state: marketState(raw, nowS),
    },
  ];
}

/** Finnhub answers an unknown symbol with zeros rather than an error; the quote has no currency, its profile does. */
export function fromFinnhub(symbol: string, raw: Finnhub, profile: Profile): Row[] {
  if (raw.c === 0 && raw.t === 0) throw noData(`Finnhub has no quote for ${symbol}`);
  return [
    {
      symbol,
      price: raw.c,
      currency: profile.currency || null,
      open: raw.o,
      high: raw.h,
      low: raw.l,
      prev_close: raw.pc,
      change: raw.d,
      change_pct: raw.dp,
      volume: null,
      exchange: profile.exchange || null,
      as_of: raw.t,
      market_state: null,
    },
  ];
}

/**
 * Rows: symbol, price, currency (as the upstream states it; null for an index, which is in points), open, high, low,
 * prev_close, change, change_pct (null where the upstream gives no previous close), volume, exchange, market_state (Yahoo's
 * trading period at the fetch: open, pre, post or closed; null where the upstream does not say), and `corroboration`
 * (issue 37): Yahoo, Finnhub (key) and Stooq's keyless quote CSV (US tickers and indices) are asked at once; the price
 * is the median of those that agree in the listing's currency, the other fields the first used source's, in this order.
 */
export default defineSource({
  type: 'stock-quote',
  categories: ['finance', 'stocks'],
  qShape: '<ticker>',
  qForms: ['<ticker> as Yahoo spells it (AAPL, BRK-B, VOD.L)', 'an index with its caret (^GSPC)'],
  namesInstrument: true,
  example: 'AAPL',
  desc: '`<ticker>` (or an index such as ^GSPC); end-of-day or intraday quote',
  parseQ: stockTicker,
  keyOf: (ticker) => ticker,
  ttlSeconds: 60,
  deadlineMs: 5000,
  entityQ: (e) => (e.type === 'equity' ? e.ids.ticker : e.type === 'index' ? e.ids.yahoo : undefined),
  // The last trade of one listing: a source five minutes behind the newest is lagging (docs/corroboration.md).
  corroboration: { item: 'symbol', quote: 'currency', rule: { quorum: 2, outlierBps: 50, staleAfterS: 300 } },
  upstreams: {
    yahoo: async (ticker, { http, deadline, clock }) => fromYahoo(await yahooChart(http, ticker, deadline), unixSeconds(clock)),
    finnhub: async (ticker, { http, deadline }) => {
      const query = { symbol: ticker };
      const [quote, profile] = await Promise.all([
        http.json<Finnhub>('/api/v1/quote', Finnhub, { deadline, query }),
        // The profile only labels the quote: without it (Finnhub refuses some symbols' profiles) the currency is unknown.
        http.json<Profile>('/api/v1/stock/profile2', Profile, { deadline, query }).catch((): Profile => ({})),
      ]);
      return fromFinnhub(ticker, quote, profile);
    },
    stooq: async (ticker, { http, deadline }) => [await stooqQuote(http, ticker, deadline)],
  },
});
