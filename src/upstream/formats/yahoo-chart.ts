import Type from 'typebox';
import type { Candle } from '../../core/candles.js';

/** Yahoo v8 chart (`/v8/finance/chart/<symbol>`): parallel timestamp and OHLCV arrays that may hold nulls (halted bars). */
const Nullable = Type.Array(Type.Union([Type.Number(), Type.Null()]));
const Period = Type.Object({ start: Type.Integer(), end: Type.Integer() });

export const YahooChart = Type.Object({
  chart: Type.Object({
    result: Type.Union([
      Type.Null(),
      Type.Array(
        Type.Object({
          meta: Type.Object({
            symbol: Type.String(),
            currency: Type.Optional(Type.String()),
            /** EQUITY, ETF, INDEX, CURRENCY, FUTURE…: an INDEX is in points, whatever `currency` says. */
            instrumentType: Type.Optional(Type.String()),
            exchangeName: Type.Optional(Type.String()),
            regularMarketPrice: Type.Optional(Type.Number()),
            regularMarketTime: Type.Optional(Type.Integer()),
            chartPreviousClose: Type.Optional(Type.Number()),
            /** The exchange's pre-market, regular and after-hours periods of the current (or last) trading day, Unix s. */
            currentTradingPeriod: Type.Optional(Type.Object({ pre: Period, regular: Period, post: Period })),
          }),
          timestamp: Type.Optional(Type.Array(Type.Integer())),
          indicators: Type.Object({
            quote: Type.Array(Type.Object({ open: Nullable, high: Nullable, low: Nullable, close: Nullable, volume: Nullable })),
          }),
        }),
      ),
    ]),
  }),
});
export type YahooChart = Type.Static<typeof YahooChart>;

/** The parallel arrays as bars; entries with a null price (halted bars) are dropped, a null volume counts as 0. */
export function yahooBars(raw: YahooChart): Candle[] {
  const result = raw.chart.result?.[0];
  const quote = result?.indicators.quote[0];
  if (!result?.timestamp || !quote) return [];
  return result.timestamp.flatMap((t, i) => {
    const [o, h, l, c, v] = [quote.open[i], quote.high[i], quote.low[i], quote.close[i], quote.volume[i]];
    return o == null || h == null || l == null || c == null ? [] : [{ t, o, h, l, c, v: v ?? 0 }];
  });
}

/** Closes by the bar's UTC day, oldest first (a close without the other prices still counts). */
export function yahooDailyCloses(raw: YahooChart): { date: string; value: number }[] {
  const result = raw.chart.result?.[0];
  const closes = result?.indicators.quote[0]?.close ?? [];
  return (result?.timestamp ?? []).flatMap((t, i) => {
    const close = closes[i];
    return typeof close === 'number' ? [{ date: new Date(t * 1000).toISOString().slice(0, 10), value: close }] : [];
  });
}

export type MarketState = 'pre' | 'open' | 'post' | 'closed';

/** The exchange's pre-market, regular session or after-hours at `nowS`, from the chart's trading period; null when Yahoo sent none. */
export function marketState(raw: YahooChart, nowS: number): MarketState | null {
  const periods = raw.chart.result?.[0]?.meta.currentTradingPeriod;
  if (!periods) return null;
  const inside = (p: { start: number; end: number }) => p.start <= nowS && nowS < p.end;
  return inside(periods.regular) ? 'open' : inside(periods.pre) ? 'pre' : inside(periods.post) ? 'post' : 'closed';
}
