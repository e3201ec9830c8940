import { roundSig, roundTo } from '../../core/numbers.js';
import { loadDataset } from '../../entities/dataset.js';
import { roundPrice, type Market } from '../market.js';
import { perturbedUsd, type Perturbation } from '../perturb.js';
import { between, own } from '../random.js';
import type { DemoWorld } from '../world.js';
import { Reply, type Route, type WorldRequest } from './types.js';
import { isoDay, releasedPeriods } from './calendar.js';
import { FRED_ROUTES } from './fred.js';
import { currentTradingPeriod, lastSession, lastTrade, sessionBars } from './sessions.js';
import { newYorkOffsetH } from './us-calendar.js';
import { ECB_CURRENCIES, LISTING_ROUTES, isListed } from './listings.js';

/**
 * Stocks, currencies and commodities of the demo world: Yahoo charts and day movers (US session hours), ECB rates
 * through Frankfurter, LBMA fixings, EIA spot prices and the SEE Capital Markets dry-bulk index, each published on
 * its own calendar and read from the world's one path per asset.
 */
const DAY_S = 86_400;
const YAHOO_STEP_S: Record<string, number> = {
  '1m': 60,
  '2m': 120,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '60m': 3600,
  '90m': 5400,
  '1h': 3600,
  '1d': DAY_S,
};
const YAHOO_RANGE_S: Record<string, number> = {
  '1d': DAY_S,
  '5d': 5 * DAY_S,
  '1mo': 30 * DAY_S,
  '3mo': 91 * DAY_S,
  '6mo': 182 * DAY_S,
  '1y': 365 * DAY_S,
  '2y': 730 * DAY_S,
};
const METAL_FUTURES: Record<string, string> = { GC: 'XAU', SI: 'XAG', PL: 'XPT', PA: 'XPD' };

/** A Yahoo symbol → the world's asset, and whether it trades around the clock on weekdays. */
function yahooAsset(symbol: string): { asset: string; allDay: boolean; currency: string } {
  const fx = /^([A-Z]{3})([A-Z]{3})=X$/.exec(symbol);
  if (fx) return { asset: `pair:${fx[1]}/${fx[2]}`, allDay: true, currency: fx[2]! };
  const future = /^([A-Z]{2})=F$/.exec(symbol);
  if (future) return { asset: `cmd:${METAL_FUTURES[future[1]!] ?? future[1]}`, allDay: false, currency: 'USD' };
  if (symbol.startsWith('^') || symbol === 'DX-Y.NYB') return { asset: `idx:${symbol}`, allDay: false, currency: 'USD' };
  return { asset: `eq:${symbol}`, allDay: false, currency: 'USD' };
}

function yahooChart(req: WorldRequest, world: DemoWorld): unknown {
  const symbol = decodeURIComponent(req.match[1]!);
  if (!isListed(symbol)) {
    return new Reply(404, { chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } });
  }
  const { asset, allDay, currency } = yahooAsset(symbol);
  const interval = req.params.get('interval') ?? '1d';
  const step = YAHOO_STEP_S[interval] ?? DAY_S;
  const to = Math.min(req.params.has('period2') ? Number(req.params.get('period2')) : req.nowS, req.nowS);
  const range = req.params.get('range') ?? '';
  const yearStart = Date.UTC(new Date(to * 1000).getUTCFullYear(), 0, 1) / 1000;
  const from = req.params.has('period1')
    ? Number(req.params.get('period1'))
    : range === 'ytd'
      ? yearStart
      : to - (YAHOO_RANGE_S[range] ?? 5 * DAY_S);
  const bars = sessionBars(world.market, asset, step, from, to, req.nowS, allDay);
  // The last trade as SVC_DEMO_PERTURB makes Yahoo show it (the bars stay the world's).
  const traded = perturbedUsd(world.market, world.perturbation('yahoo'), (s) => world.market.price(asset, s), lastTrade(req.nowS, allDay));
  const template = world.template<{ chart: { result: { meta: Record<string, unknown> }[] } }>('yahoo', '/v8/finance/chart/AAPL', req.nowS, {
    interval: '1d',
    range: '5d',
  });
  const column = (k: 'o' | 'h' | 'l' | 'c' | 'v') => bars.map((b) => b[k]);
  const meta = {
    ...template.chart.result[0]!.meta,
    currency,
    symbol,
    instrumentType: allDay ? 'CURRENCY' : asset.startsWith('eq:') ? 'EQUITY' : asset.startsWith('idx:') ? 'INDEX' : 'FUTURE',
    regularMarketPrice: roundPrice(traded.price),
    regularMarketTime: traded.at,
    chartPreviousClose: roundPrice(world.market.price(asset, bars[0] ? bars[0].t - 1 : from)),
    currentTradingPeriod: withZone(currentTradingPeriod(req.nowS, allDay), allDay),
    dataGranularity: interval,
    range,
  };
  const quote = { open: column('o'), high: column('h'), low: column('l'), close: column('c'), volume: column('v').map(Math.round) };
  return { chart: { result: [{ meta, timestamp: bars.map((b) => b.t), indicators: { quote: [quote] } }], error: null } };
}

/** Yahoo writes each period with its exchange's zone: New York for US listings, GMT for currencies. */
function withZone(periods: Record<'pre' | 'regular' | 'post', { start: number; end: number }>, allDay: boolean) {
  const gmtoffset = allDay ? 0 : newYorkOffsetH(periods.regular.start) * 3600;
  const timezone = allDay ? 'GMT' : gmtoffset === -4 * 3600 ? 'EDT' : 'EST';
  const zoned = (p: { start: number; end: number }) => ({ timezone, ...p, gmtoffset });
  return { pre: zoned(periods.pre), regular: zoned(periods.regular), post: zoned(periods.post) };
}

/** Yahoo's predefined day_gainers / day_losers over the entity graph's equities: change since the previous session's close. */
function screener(req: WorldRequest, world: DemoWorld): unknown {
  const gainers = req.params.get('scrIds') !== 'day_losers';
  const count = Math.min(Number(req.params.get('count') ?? 25), 100);
  const traded = lastTrade(req.nowS);
  const previousClose = lastSession(lastSession(req.nowS).open - 1).close;
  const equities = loadDataset().entities.filter((e) => e.type === 'equity' && e.ids.ticker);
  const quotes = equities.map((e) => {
    const asset = `eq:${e.ids.ticker}`;
    const price = world.market.price(asset, traded);
    const before = world.market.price(asset, previousClose);
    return {
      language: 'en-US',
      region: 'US',
      quoteType: 'EQUITY',
      exchange: e.ids.exchange === 'NYSE' ? 'NYQ' : 'NMS',
      shortName: e.name,
      symbol: e.ids.ticker!,
      regularMarketPrice: roundPrice(price),
      regularMarketChange: roundTo(price - before, 4),
      regularMarketChangePercent: roundTo((price / before - 1) * 100, 4),
      regularMarketVolume: Math.round(between(world.seed, `volume:${e.ids.ticker}@${Math.floor(traded / 60)}`, 2e6, 6e7)),
      marketCap: Math.round(price * between(world.seed, `shares:${e.ids.ticker}`, 3e8, 8e9)),
    };
  });
  const ranked = quotes
    .filter((q) => (gainers ? q.regularMarketChangePercent > 0 : q.regularMarketChangePercent < 0))
    .sort((a, b) =>
      gainers ? b.regularMarketChangePercent - a.regularMarketChangePercent : a.regularMarketChangePercent - b.regularMarketChangePercent,
    )
    .slice(0, count);
  const body = world.template<{ finance: { result: Record<string, unknown>[] } }>(
    'yahoo',
    '/v1/finance/screener/predefined/saved',
    req.nowS,
  );
  const id = gainers ? 'day_gainers' : 'day_losers';
  const result = { ...body.finance.result[0], id, title: gainers ? 'Day Gainers' : 'Day Losers', canonicalName: id.toUpperCase() };
  return { finance: { result: [{ ...result, count: ranked.length, total: ranked.length, quotes: ranked }], error: null } };
}

/** Frankfurter publishes the ECB reference rates of each weekday (fixed 14:15 CET) from about 16:00 CET. */
const ECB_RELEASE_S = 15 * 3600 - DAY_S;
/** The day's fixing, as SVC_DEMO_PERTURB makes Frankfurter show it when `perturbation` is given. */
const ecbRate = (market: Market, base: string, symbol: string, dayStart: number, perturbation?: Perturbation) =>
  roundSig(perturbedUsd(market, perturbation, (s) => market.usd(base, s) / market.usd(symbol, s), dayStart + 13.25 * 3600).price, 5);

function frankfurterRates(
  market: Market,
  base: string,
  symbols: string[],
  dayStart: number,
  perturbation?: Perturbation,
): Record<string, number> | undefined {
  if (!ECB_CURRENCIES.includes(base) || symbols.some((s) => !ECB_CURRENCIES.includes(s))) return undefined;
  return Object.fromEntries(symbols.filter((s) => s !== base).map((s) => [s, ecbRate(market, base, s, dayStart, perturbation)]));
}

function frankfurterLatest(req: WorldRequest, world: DemoWorld): unknown {
  const base = req.params.get('base') ?? 'EUR';
  const [day] = releasedPeriods('weekdays', ECB_RELEASE_S, req.nowS, 1);
  const symbols = req.params.get('symbols')?.split(',') ?? ECB_CURRENCIES;
  const rates = frankfurterRates(world.market, base, symbols, day!.start, world.perturbation('frankfurter'));
  return rates ? { amount: 1, base, date: day!.date, rates } : new Reply(404, { message: 'not found' });
}

function frankfurterSeries(req: WorldRequest, world: DemoWorld): unknown {
  const base = req.params.get('base') ?? 'EUR';
  const [start, end] = [req.match[1]!, req.match[2]!].map((d) => Date.parse(`${d}T00:00:00Z`) / 1000) as [number, number];
  const back = Math.ceil((req.nowS - start) / DAY_S) + 1;
  const days = releasedPeriods('weekdays', ECB_RELEASE_S, req.nowS, back)
    .filter((p) => p.start >= start && p.start <= end)
    .reverse();
  const symbols = req.params.get('symbols')?.split(',') ?? ECB_CURRENCIES;
  if (!frankfurterRates(world.market, base, symbols, start)) return new Reply(404, { message: 'not found' });
  const rates = Object.fromEntries(days.map((d) => [d.date, frankfurterRates(world.market, base, symbols, d.start)]));
  return { amount: 1, base, start_date: days[0]?.date ?? isoDay(start), end_date: days.at(-1)?.date ?? isoDay(end), rates };
}

/** LBMA benchmark files: one fixing per weekday (gold and platinum PM, silver at noon, London), [USD, GBP, EUR], oldest first. */
const LBMA_FIX_S: Record<string, { asset: string; atS: number }> = {
  gold_pm: { asset: 'cmd:XAU', atS: 15 * 3600 },
  silver: { asset: 'cmd:XAG', atS: 12 * 3600 },
  platinum_pm: { asset: 'cmd:XPT', atS: 14 * 3600 },
};

function lbma(req: WorldRequest, world: DemoWorld): unknown {
  const metal = own(LBMA_FIX_S, req.match[1]!);
  if (!metal) return new Reply(404, '<html><body>Not Found</body></html>');
  const fixes = releasedPeriods('weekdays', metal.atS - DAY_S, req.nowS, 90).reverse();
  return fixes.map((day) => {
    const at = day.start + metal.atS;
    const usd = perturbedUsd(world.market, world.perturbation('lbma'), (s) => world.market.price(metal.asset, s), at).price;
    const decimals = usd < 100 ? 4 : 2;
    return { d: day.date, v: [usd, usd / world.market.usd('GBP', at), usd / world.market.usd('EUR', at)].map((v) => roundTo(v, decimals)) };
  });
}

/** EIA daily spot prices (weekdays), released about four days after the trading day. */
function eiaSpot(req: WorldRequest, world: DemoWorld): unknown {
  const series = req.params.get('facets[series][]') ?? 'RWTC';
  const asset = own({ RWTC: 'cmd:CL', RBRTE: 'cmd:BZ' }, series);
  if (!asset) return { response: { total: '0', dateFormat: 'YYYY-MM-DD', frequency: 'daily', data: [] } };
  const template = world.template<{ response: { data: Record<string, unknown>[] } }>('eia', '/v2/petroleum/pri/spt/data/', req.nowS, {
    'facets[series][]': 'RWTC',
  });
  const row = template.response.data[0]!;
  const named =
    series === 'RBRTE'
      ? {
          duoarea: 'EER',
          product: 'EPCBRENT',
          'product-name': 'UK Brent Crude Oil',
          'series-description': 'Europe Brent Spot Price FOB (Dollars per Barrel)',
        }
      : {};
  const days = releasedPeriods('weekdays', 4 * DAY_S, req.nowS, Math.min(Number(req.params.get('length') ?? 5000), 5000));
  const data = days.map((d) => ({
    ...row,
    ...named,
    period: d.date,
    series,
    value: roundTo(world.market.price(asset, d.start + 19.5 * 3600), 2).toFixed(2),
  }));
  return { ...template, response: { ...template.response, total: String(data.length), data } };
}

/** SEE Capital Markets index history, ascending: the world's dry-bulk index (BDI), published each weekday at 13:00 UTC. */
function seeHistory(req: WorldRequest, world: DemoWorld): unknown {
  const years = Math.min(Number(req.params.get('years') ?? 1), 5);
  const days = releasedPeriods('weekdays', 13 * 3600 - DAY_S, req.nowS, Math.round(years * 261)).reverse();
  const closes = days.map((d) => Math.round(world.market.price('cmd:BDI', d.start + 13 * 3600)));
  return {
    data: days.map((d, i) => {
      const close = closes[i]!;
      const change = i ? roundTo((close / closes[i - 1]! - 1) * 100, 2) : 0;
      return {
        Date: `${d.date}T00:00:00`,
        Open: close,
        High: close,
        Low: close,
        Close: close,
        Change: change,
        Turnover: 0,
        IndexShortName: '',
        ISIN: '',
        IndexName: '',
      };
    }),
  };
}

/** gold-api.com's live spot (gold-api is commodity-metals' fallback): the world's price at the last minute. */
function goldApi(req: WorldRequest, world: DemoWorld): unknown {
  const symbol = req.match[1]!;
  const path = (s: number) => world.market.price(`cmd:${symbol}`, s);
  const { price, at } = perturbedUsd(world.market, world.perturbation('gold-api'), path, Math.floor(req.nowS / 60) * 60);
  return {
    name: symbol,
    price: roundTo(price, 2),
    symbol,
    updatedAt: new Date(at * 1000).toISOString(),
    updatedAtReadable: 'a few seconds ago',
  };
}

export const TRADFI_ROUTES: Route[] = [
  ...FRED_ROUTES,
  ...LISTING_ROUTES,
  { host: 'yahoo', path: /^\/v8\/finance\/chart\/([^/]+)$/, answer: yahooChart },
  { host: 'yahoo', path: /^\/v1\/finance\/screener\/predefined\/saved$/, answer: screener },
  { host: 'frankfurter', path: /^\/v1\/latest$/, answer: frankfurterLatest },
  { host: 'frankfurter', path: /^\/v1\/(\d{4}-\d\d-\d\d)\.\.(\d{4}-\d\d-\d\d)$/, answer: frankfurterSeries },
  { host: 'lbma', path: /^\/json\/([a-z_]+)\.json$/, answer: lbma },
  { host: 'eia', path: /^\/v2\/petroleum\/pri\/spt\/data\/$/, answer: eiaSpot },
  { host: 'seecapitalmarkets', path: /^\/SingleIndexValues\/GetHistoryDataAscending$/, answer: seeHistory },
  { host: 'gold-api', path: /^\/price\/(XAU|XAG|XPT|XPD)$/, answer: goldApi },
];
