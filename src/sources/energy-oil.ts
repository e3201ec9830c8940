import Type from 'typebox';
import { oneOf } from './lib/q.js';
import { isoDaysAgo, parseFredCsv, type Observation } from './lib/fred.js';
import { latestWithSeries } from './lib/series.js';
import { defineSource, type Row } from './define.js';

export const BENCHMARKS = ['WTI', 'Brent'] as const;
export type Benchmark = (typeof BENCHMARKS)[number];

/** EIA spot series and their FRED copies (FRED republishes the same EIA daily spot prices). */
const SERIES: Record<Benchmark, { eia: string; fred: string; name: string }> = {
  WTI: { eia: 'RWTC', fred: 'DCOILWTICO', name: 'WTI Cushing, OK spot FOB' },
  Brent: { eia: 'RBRTE', fred: 'DCOILBRENTEU', name: 'Brent Europe spot FOB' },
};
const POINTS = 30;

/** EIA sends `value` as a string or a number depending on the route version; null for holidays. */
const EiaSpot = Type.Object({
  response: Type.Object({
    data: Type.Array(
      Type.Object({
        period: Type.String(),
        series: Type.Optional(Type.String()),
        value: Type.Union([Type.String(), Type.Number(), Type.Null()]),
      }),
    ),
  }),
});
type EiaSpot = Type.Static<typeof EiaSpot>;

export const eiaObservations = (raw: EiaSpot): Observation[] =>
  raw.response.data
    .filter((d) => d.value !== null && d.value !== '' && Number.isFinite(Number(d.value)))
    .map((d) => ({ date: d.period, value: Number(d.value) }))
    .sort((a, b) => b.date.localeCompare(a.date));

export const toRows = (benchmark: Benchmark, seriesId: string, observations: Observation[]): Row[] => [
  { benchmark, series_id: seriesId, name: SERIES[benchmark].name, ...latestWithSeries(observations, 'price_usd_bbl', POINTS) },
];

/** Rows (one): benchmark, series_id, name, date, price_usd_bbl, series [{date, price_usd_bbl}] (newest first, up to 30 trading days). */
export default defineSource<Benchmark>({
  type: 'energy-oil',
  categories: ['energy', 'commodities', 'finance'],
  qShape: '<benchmark_name>',
  example: 'WTI',
  desc: '`<benchmark_name>` (crude benchmarks WTI and Brent); daily spot series',
  parseQ: oneOf(BENCHMARKS, '<benchmark_name>'),
  keyOf: (benchmark) => benchmark,
  ttlSeconds: 3600,
  deadlineMs: 5000,
  entityQ: (e) => e.ids.benchmark,
  upstreams: {
    eia: async (benchmark, { http, deadline }) => {
      const { eia } = SERIES[benchmark];
      const raw = await http.json<EiaSpot>('/v2/petroleum/pri/spt/data/', EiaSpot, {
        deadline,
        query: {
          frequency: 'daily',
          'data[0]': 'value',
          'facets[series][]': eia,
          'sort[0][column]': 'period',
          'sort[0][direction]': 'desc',
          offset: 0,
          length: POINTS,
        },
      });
      return toRows(benchmark, eia, eiaObservations(raw));
    },
    'fred-graph': async (benchmark, { http, deadline, clock }) => {
      const { fred } = SERIES[benchmark];
      const csv = await http.text('/graph/fredgraph.csv', { deadline, query: { id: fred, cosd: isoDaysAgo(clock.now(), 60) } });
      return toRows(benchmark, fred, parseFredCsv(csv));
    },
  },
});
