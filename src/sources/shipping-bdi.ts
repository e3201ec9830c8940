import Type from 'typebox';
import { oneOf } from './lib/q.js';
import { dayStart } from './lib/series.js';
import { roundTo } from '../core/numbers.js';
import { YahooChart, yahooDailyCloses } from '../upstream/formats/yahoo-chart.js';
import type { Observation } from './lib/fred.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

export const PERIODS = ['latest', '1w', '1m', '3m', '6m', 'ytd', '1y'] as const;
export type Period = (typeof PERIODS)[number];

const DAY_MS = 86_400_000;
const WINDOW_DAYS: Record<Exclude<Period, 'latest' | 'ytd'>, number> = { '1w': 7, '1m': 30, '3m': 91, '6m': 182, '1y': 365 };
/**
 * SEE Capital Markets republishes the Baltic Exchange's indices on its "Shipping indexes" page; its listing names
 * internal index 39 "Baltic Dry Index" (BDI), next to 37 BCI, 42 BPI, 43 BSI, 41 BHSI, 40 BDTI, 38 BCTI, as public
 * clients of that page read it. The history XHR itself names no index.
 */
const BDI_INDEX_ID = 39;

interface Series {
  index: string;
  name: string;
  is_bdi: boolean;
  /** A freight index (index points) or the share price of a fund that trades freight futures (not a freight rate). */
  kind: 'freight_index' | 'fund_price';
  unit: 'index_points' | 'usd_per_share';
}
const BALTIC_DRY: Series = {
  index: 'BDI',
  name: 'Baltic Dry Index (Baltic Exchange), as republished by SEE Capital Markets',
  is_bdi: true,
  kind: 'freight_index',
  unit: 'index_points',
};
const BDRY: Series = {
  index: 'BDRY',
  name: 'Breakwave Dry Bulk Shipping ETF share price: a fund holding dry bulk freight futures, not a freight rate or the BDI',
  is_bdi: false,
  kind: 'fund_price',
  unit: 'usd_per_share',
};

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The observations a period covers, newest first: `latest` is the last close and the one before it. */
export function windowOf(period: Period, newestFirst: Observation[]): Observation[] {
  if (period === 'latest') return newestFirst.slice(0, 2);
  const latest = Date.parse(`${newestFirst[0]!.date}T00:00:00Z`);
  const from = period === 'ytd' ? `${newestFirst[0]!.date.slice(0, 4)}-01-01` : isoDay(latest - WINDOW_DAYS[period] * DAY_MS);
  return newestFirst.filter((o) => o.date >= from);
}

/** Change is measured from the oldest close in the window to the latest. */
export function toRows(meta: Series, period: Period, observations: Observation[]): Row[] {
  const newestFirst = [...observations].sort((a, b) => b.date.localeCompare(a.date));
  if (newestFirst.length === 0) throw noData(`no ${meta.index} closes were published`);
  const window = windowOf(period, newestFirst);
  const latest = window[0]!;
  const base = window.at(-1)!;
  const closes = window.map((o) => o.value);
  return [
    {
      ...meta,
      period,
      date: latest.date,
      close: latest.value,
      change: roundTo(latest.value - base.value, 2),
      change_pct: base.value ? roundTo(((latest.value - base.value) / base.value) * 100, 2) : null,
      high: Math.max(...closes),
      low: Math.min(...closes),
      series: window.map((o) => ({ date: o.date, close: o.value })),
      as_of: dayStart(latest.date),
    },
  ];
}

const History = Type.Object({ data: Type.Array(Type.Object({ Date: Type.String(), Close: Type.Union([Type.Number(), Type.Null()]) })) });
type History = Type.Static<typeof History>;

/** `Date` is a local-midnight timestamp without zone (`2026-11-20T00:00:00`): its first 10 characters are the day. */
export const fromHistory = (raw: History): Observation[] =>
  raw.data.flatMap((d) => (typeof d.Close === 'number' && d.Close > 0 ? [{ date: d.Date.slice(0, 10), value: d.Close }] : []));

/** Daily closes (null on halted days), by the bar's UTC day, in cents. */
export const fromChart = (raw: YahooChart): Observation[] => yahooDailyCloses(raw).map((o) => ({ ...o, value: roundTo(o.value, 2) }));

/**
 * Rows (one): index (BDI, or BDRY from the Yahoo fallback), name (what the series is), is_bdi, kind (freight_index, or
 * fund_price for the ETF: a proxy, not freight rates), unit (index_points | usd_per_share), period, date, close,
 * change and change_pct (from the oldest close in the period), high, low, series [{date, close}] (newest first).
 */
export default defineSource<Period>({
  type: 'shipping-bdi',
  categories: ['shipping', 'logistics', 'commodities'],
  qShape: '<period_label>',
  example: 'latest',
  desc: '`<period_label>`; the Baltic Dry Index, or (fallback) a dry bulk freight-futures ETF price marked kind: fund_price',
  parseQ: oneOf(PERIODS, '<period_label>', (s) => s.toLowerCase()),
  keyOf: (period) => period,
  ttlSeconds: 3 * 3600,
  deadlineMs: 6000,
  upstreams: {
    seecapitalmarkets: async (period, { http, deadline }) => {
      const raw = await http.json<History>('/SingleIndexValues/GetHistoryDataAscending', History, {
        deadline,
        query: { indexId: BDI_INDEX_ID, years: 1 },
      });
      return toRows(BALTIC_DRY, period, fromHistory(raw));
    },
    yahoo: async (period, { http, deadline }) => {
      const raw = await http.json<YahooChart>('/v8/finance/chart/BDRY', YahooChart, { deadline, query: { interval: '1d', range: '1y' } });
      return toRows(BDRY, period, fromChart(raw));
    },
  },
});
