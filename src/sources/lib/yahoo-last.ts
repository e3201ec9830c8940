import type { HostHttp } from '../../upstream/client.js';
import { noData } from '../../upstream/errors.js';
import { YahooChart } from '../../upstream/formats/yahoo-chart.js';

/** A Yahoo chart's last trade: its price, the currency Yahoo states for it, and when it traded (Unix s). */
export interface YahooLast {
  symbol: string;
  price: number;
  /** null for an index, which is in points (Yahoo labels ^GSPC `USD`, its exchange's currency; Stooq gives none). */
  currency: string | null;
  as_of: number | undefined;
}

/** The last trade of a chart: the meta's regular-market price and time, else the last bar's close and time. */
export function yahooLast(raw: YahooChart): YahooLast {
  const r = raw.chart.result?.[0];
  if (!r) throw noData('Yahoo has no chart for this ticker');
  const closes = (r.indicators.quote[0]?.close ?? []).filter((c): c is number => c !== null);
  const price = r.meta.regularMarketPrice ?? closes.at(-1);
  if (price === undefined) throw noData('Yahoo sent a chart without a price');
  const currency = r.meta.instrumentType === 'INDEX' ? null : (r.meta.currency ?? null);
  return { symbol: r.meta.symbol, price, currency, as_of: r.meta.regularMarketTime ?? r.timestamp?.at(-1) };
}

/** Yahoo's 5-day daily chart of `symbol` (a currency pair `EURUSD=X`, a future `GC=F`, a ticker). */
export const yahooChart = (http: HostHttp, symbol: string, deadline: number) =>
  http.json<YahooChart>(`/v8/finance/chart/${encodeURIComponent(symbol)}`, YahooChart, {
    deadline,
    query: { interval: '1d', range: '5d' },
  });
