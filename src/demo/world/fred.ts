import { roundTo } from '../../core/numbers.js';
import type { Market } from '../market.js';
import { own } from '../random.js';
import type { DemoWorld } from '../world.js';
import { Reply, type Route, type WorldRequest } from './types.js';
import { isoDay, periodValue, releasedPeriods, releasedSince, type Frequency, type Period } from './calendar.js';

/**
 * FRED in the demo world: the economic-indicator codes, the oil and grain series other types read, each with FRED's
 * title, units and frequency, released on its usual calendar. Values come from the world: treasury yields and the
 * macro series walk on their own, DEXUSEU is the world's EUR, DCOILWTICO its WTI, T10Y2Y the 10-year minus the 2-year,
 * and the IMF grain prices the CBOT futures converted to USD per metric ton (as agriculture-prices converts them).
 */
interface FredSeries {
  title: string;
  units: string;
  frequency: Frequency;
  /** How long after the period ends FRED has the value. */
  releaseAfterS: number;
  value: (market: Market, t: number) => number;
  decimals: number;
  /** Values averaged over the period (monthly means). */
  samples?: number;
}

const DAY_S = 86_400;
const LABEL: Record<Frequency, string> = {
  daily: 'Daily, 7-Day',
  weekdays: 'Daily',
  'weekly-sat': 'Weekly, Ending Saturday',
  'weekly-wed': 'Weekly, As of Wednesday',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
};
const macro =
  (code: string) =>
  (market: Market, t: number): number =>
    market.price(`macro:${code}`, t);
const treasury = (maturity: string, code: string): FredSeries => ({
  title: `Market Yield on U.S. Treasury Securities at ${maturity} Constant Maturity, Quoted on an Investment Basis`,
  units: 'Percent',
  frequency: 'weekdays',
  releaseAfterS: 0.8 * DAY_S,
  value: macro(code),
  decimals: 2,
});
const monthly = (title: string, units: string, code: string, releaseDays: number, decimals: number): FredSeries => ({
  title,
  units,
  frequency: 'monthly',
  releaseAfterS: releaseDays * DAY_S,
  value: macro(code),
  decimals,
  samples: 4,
});
const quarterly = (title: string, units: string, code: string): FredSeries => ({
  ...monthly(title, units, code, 29, 3),
  frequency: 'quarterly',
  samples: 6,
});
/** IMF monthly grain price from a CBOT future quoted in US cents per `pounds`-lb bushel. */
const grain = (name: string, future: string, pounds: number): FredSeries => ({
  ...monthly(`Global price of ${name}`, 'U.S. Dollars per Metric Ton', '', 14, 2),
  value: (market, t) => (market.price(`cmd:${future}`, t) * 2204.62262) / pounds / 100,
});
const daily = (title: string, units: string, value: FredSeries['value'], releaseDays: number, decimals: number): FredSeries => ({
  title,
  units,
  frequency: 'weekdays',
  releaseAfterS: releaseDays * DAY_S,
  value,
  decimals,
});

const MATURITIES: Record<string, string> = {
  '1MO': '1-Month',
  '3MO': '3-Month',
  '6MO': '6-Month',
  '1': '1-Year',
  '2': '2-Year',
  '3': '3-Year',
  '5': '5-Year',
  '7': '7-Year',
  '10': '10-Year',
  '20': '20-Year',
  '30': '30-Year',
};

const FRED_SERIES: Record<string, FredSeries> = {
  ...Object.fromEntries(Object.entries(MATURITIES).map(([m, name]) => [`DGS${m}`, treasury(name, `DGS${m}`)])),
  CPIAUCSL: monthly(
    'Consumer Price Index for All Urban Consumers: All Items in U.S. City Average',
    'Index 1982-1984=100',
    'CPIAUCSL',
    13,
    3,
  ),
  CPILFESL: monthly(
    'Consumer Price Index for All Urban Consumers: All Items Less Food and Energy in U.S. City Average',
    'Index 1982-1984=100',
    'CPILFESL',
    13,
    3,
  ),
  PCEPI: monthly('Personal Consumption Expenditures: Chain-type Price Index', 'Index 2017=100', 'PCEPI', 28, 3),
  UNRATE: monthly('Unemployment Rate', 'Percent', 'UNRATE', 5, 1),
  PAYEMS: monthly('All Employees, Total Nonfarm', 'Thousands of Persons', 'PAYEMS', 5, 0),
  M2SL: monthly('M2', 'Billions of Dollars', 'M2SL', 24, 1),
  GDP: quarterly('Gross Domestic Product', 'Billions of Dollars', 'GDP'),
  GDPC1: quarterly('Real Gross Domestic Product', 'Billions of Chained 2017 Dollars', 'GDPC1'),
  ICSA: {
    title: 'Initial Claims',
    units: 'Number',
    frequency: 'weekly-sat',
    releaseAfterS: 4.6 * DAY_S,
    value: macro('ICSA'),
    decimals: -3,
  },
  WALCL: {
    title: 'Assets: Total Assets: Total Assets (Less Eliminations from Consolidation): Wednesday Level',
    units: 'Millions of U.S. Dollars',
    frequency: 'weekly-wed',
    releaseAfterS: 0.9 * DAY_S,
    value: macro('WALCL'),
    decimals: 0,
  },
  DFF: { ...daily('Federal Funds Effective Rate', 'Percent', macro('DFF'), 0.6, 2), frequency: 'daily' },
  DTWEXBGS: daily('Nominal Broad U.S. Dollar Index', 'Index Jan 2006=100', macro('DTWEXBGS'), 4, 4),
  DEXUSEU: daily('U.S. Dollars to Euro Spot Exchange Rate', 'U.S. Dollars to One Euro', (m, t) => m.usd('EUR', t), 4, 4),
  DCOILWTICO: daily(
    'Crude Oil Prices: West Texas Intermediate (WTI) - Cushing, Oklahoma',
    'Dollars per Barrel',
    (m, t) => m.price('cmd:CL', t),
    5,
    2,
  ),
  DCOILBRENTEU: daily('Crude Oil Prices: Brent - Europe', 'Dollars per Barrel', (m, t) => m.price('cmd:BZ', t), 5, 2),
  T10Y2Y: daily(
    '10-Year Treasury Constant Maturity Minus 2-Year Treasury Constant Maturity',
    'Percent',
    (m, t) => m.price('macro:DGS10', t) - m.price('macro:DGS2', t),
    0.8,
    2,
  ),
  PWHEAMTUSDM: grain('Wheat', 'ZW', 60),
  PMAIZMTUSDM: grain('Corn', 'ZC', 56),
  PSOYBUSDM: grain('Soybeans', 'ZS', 60),
  PRICENPQUSDM: { ...monthly('Global price of Rice, Thailand', 'U.S. Dollars per Metric Ton', 'PRICENPQUSDM', 14, 2) },
  PBARLUSDM: { ...monthly('Global price of Barley', 'U.S. Dollars per Metric Ton', 'PBARLUSDM', 14, 2) },
};

const observationValue = (market: Market, series: FredSeries, period: Period): number =>
  roundTo(
    periodValue(period, (t) => series.value(market, t), series.samples),
    series.decimals,
  );

const unknownSeries = () => new Reply(400, { error_code: 400, error_message: 'Bad Request.  The series does not exist.' });

function observations(req: WorldRequest, world: DemoWorld): unknown {
  const id = req.params.get('series_id') ?? '';
  const series = own(FRED_SERIES, id);
  if (!series) return unknownSeries();
  const limit = Math.min(Number(req.params.get('limit') ?? 100_000), 1000);
  const periods = releasedPeriods(series.frequency, series.releaseAfterS, req.nowS, limit);
  const today = isoDay(req.nowS);
  const body = world.template<Record<string, unknown>>('fred', '/fred/series/observations', req.nowS);
  return {
    ...body,
    realtime_start: today,
    realtime_end: today,
    count: periods.length,
    limit,
    observations: periods.map((p) => ({
      realtime_start: today,
      realtime_end: today,
      date: p.date,
      value: observationValue(world.market, series, p).toFixed(Math.max(0, series.decimals)),
    })),
  };
}

function seriesInfo(req: WorldRequest, world: DemoWorld): unknown {
  const id = req.params.get('series_id') ?? '';
  const series = own(FRED_SERIES, id);
  if (!series) return unknownSeries();
  const today = isoDay(req.nowS);
  const [latest] = releasedPeriods(series.frequency, series.releaseAfterS, req.nowS, 1);
  const body = world.template<{ seriess: Record<string, unknown>[] }>('fred', '/fred/series', req.nowS);
  return {
    ...body,
    realtime_start: today,
    realtime_end: today,
    seriess: [
      {
        ...body.seriess[0],
        id,
        realtime_start: today,
        realtime_end: today,
        title: series.title,
        observation_end: latest!.date,
        frequency: LABEL[series.frequency],
        frequency_short: LABEL[series.frequency][0],
        units: series.units,
        last_updated: `${isoDay(latest!.end + series.releaseAfterS)} 15:18:03-05`,
      },
    ],
  };
}

/** fredgraph.csv: `observation_date,<ID>` from `cosd` (default a year back), oldest first. */
function graphCsv(req: WorldRequest, world: DemoWorld): unknown {
  const id = req.params.get('id') ?? '';
  const series = own(FRED_SERIES, id);
  if (!series) return new Reply(404, '<!DOCTYPE html><html><body>Series not found</body></html>');
  const from = req.params.has('cosd') ? Date.parse(`${req.params.get('cosd')}T00:00:00Z`) / 1000 : req.nowS - 365 * DAY_S;
  const rows = releasedSince(series.frequency, series.releaseAfterS, req.nowS, from).map(
    (p) => `${p.date},${observationValue(world.market, series, p)}`,
  );
  return `observation_date,${id}\n${rows.join('\n')}\n`;
}

export const FRED_ROUTES: Route[] = [
  { host: 'fred', path: /^\/fred\/series\/observations$/, answer: observations },
  { host: 'fred', path: /^\/fred\/series$/, answer: seriesInfo },
  { host: 'fred-graph', path: /^\/graph\/fredgraph\.csv$/, answer: graphCsv },
];
