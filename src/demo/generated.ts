import type { DemoSeries } from './series.js';

/**
 * Upstream answers the demo computes instead of replaying: candle and rate series relative to now, for every
 * interval and pair the service can ask for, in each upstream's documented response shape.
 */
const STEP_S: Record<string, number> = {
  '1m': 60,
  '2m': 120,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '60m': 3600,
  '1h': 3600,
  '4h': 14_400,
  '90m': 5400,
  '1d': 86_400,
};
const RANGE_S: Record<string, number> = {
  '1d': 86_400,
  '5d': 5 * 86_400,
  '1mo': 30 * 86_400,
  '3mo': 91 * 86_400,
  '6mo': 182 * 86_400,
  '1y': 365 * 86_400,
};
const BINANCE_MAX = 1000;
const QUOTES = /(USDT|USDC|FDUSD|BTC|ETH)$/;

/** `BTCUSDT` → BTC priced in USDT; `ETHBTC` → ETH priced in BTC. */
function binanceLevel(series: DemoSeries, pair: string): { symbol: string; level: number } {
  const quote = QUOTES.exec(pair)?.[1] ?? 'USDT';
  const base = pair.slice(0, -quote.length) || pair;
  const inUsd = (s: string) => (s.startsWith('USD') || s === 'FDUSD' ? 1 : series.level(s));
  return { symbol: base, level: inUsd(base) / inUsd(quote) };
}

function binanceKlines(series: DemoSeries, params: URLSearchParams, nowS: number): unknown {
  const step = STEP_S[params.get('interval') ?? ''];
  if (!step) return { code: -1120, msg: 'Invalid interval.' };
  const limit = Math.min(Number(params.get('limit') ?? 500), BINANCE_MAX);
  const end = Math.min(params.has('endTime') ? Number(params.get('endTime')) / 1000 : nowS, nowS);
  const start = params.has('startTime') ? Number(params.get('startTime')) / 1000 : end - (limit - 1) * step;
  const { symbol, level } = binanceLevel(series, params.get('symbol') ?? 'BTCUSDT');
  const bars = series.bars(symbol, step, start, end, { level }).slice(0, limit);
  return bars.map((b) => [
    b.t * 1000,
    `${b.o}`,
    `${b.h}`,
    `${b.l}`,
    `${b.c}`,
    `${b.v}`,
    (b.t + step) * 1000 - 1,
    `${b.v * b.c}`,
    100,
    `${b.v / 2}`,
    '0',
    '0',
  ]);
}

/** `EURUSD=X` is a currency pair; anything else a stock or fund in USD. */
function yahooChart(series: DemoSeries, ticker: string, params: URLSearchParams, nowS: number): unknown {
  const step = STEP_S[params.get('interval') ?? '1d'] ?? 86_400;
  const range = params.get('range');
  const to = Math.min(params.has('period2') ? Number(params.get('period2')) : nowS, nowS);
  const yearStart = Date.UTC(new Date(to * 1000).getUTCFullYear(), 0, 1) / 1000;
  const from = params.has('period1')
    ? Number(params.get('period1'))
    : range === 'ytd'
      ? yearStart
      : to - (RANGE_S[range ?? ''] ?? 5 * 86_400);
  const fx = /^([A-Z]{3})([A-Z]{3})=X$/.exec(ticker);
  const level = fx ? series.rate(fx[1]!, fx[2]!) : series.level(ticker);
  const bars = series.bars(ticker, step, from, to, { weekdays: true, level });
  const last = bars.at(-1);
  const meta = {
    symbol: ticker,
    currency: fx ? fx[2] : 'USD',
    exchangeName: 'DEMO',
    regularMarketPrice: last?.c,
    regularMarketTime: last ? Math.min(last.t + step, nowS) : undefined,
    chartPreviousClose: bars.at(-2)?.c,
  };
  const column = (k: 'o' | 'h' | 'l' | 'c' | 'v') => bars.map((b) => b[k]);
  const quote = { open: column('o'), high: column('h'), low: column('l'), close: column('c'), volume: column('v') };
  return { chart: { result: [{ meta, timestamp: bars.map((b) => b.t), indicators: { quote: [quote] } }], error: null } };
}

/** Frankfurter's time series: one ECB-style rate per weekday between the two dates. */
function frankfurterSeries(series: DemoSeries, span: string, params: URLSearchParams, nowS: number): unknown {
  const [start, end] = span.split('..').map((d) => Date.parse(`${d}T00:00:00Z`) / 1000) as [number, number];
  const base = params.get('base') ?? 'EUR';
  const symbols = (params.get('symbols') ?? 'USD').split(',');
  const days = series.bars(`${base}`, 86_400, start, Math.min(end, nowS - 86_400), { weekdays: true, level: 1 });
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  const rates = Object.fromEntries(
    days.map((d) => [day(d.t), Object.fromEntries(symbols.map((s) => [s, Number((series.rate(base, s) * d.c).toFixed(4))]))]),
  );
  return {
    amount: 1,
    base,
    start_date: days[0] ? day(days[0].t) : day(start),
    end_date: days.at(-1) ? day(days.at(-1)!.t) : day(end),
    rates,
  };
}

/** The generated answer for this request, or undefined when the request is one the fixtures replay. */
export function generatedAnswer(series: DemoSeries, host: string, path: string, params: URLSearchParams, nowS: number): unknown {
  if (host === 'binance' && path === '/api/v3/klines') return binanceKlines(series, params, nowS);
  const chart = /^\/v8\/finance\/chart\/([^/]+)$/.exec(path);
  if (host === 'yahoo' && chart) return yahooChart(series, decodeURIComponent(chart[1]!), params, nowS);
  const span = /^\/v1\/(\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2})$/.exec(path);
  if (host === 'frankfurter' && span) return frankfurterSeries(series, span[1]!, params, nowS);
  return undefined;
}
