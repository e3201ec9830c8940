import Type from 'typebox';
import { oneOf } from './lib/q.js';
import { isoDaysAgo, parseFredCsv, parseObservations, type Observation } from './lib/fred.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';

/** The 26 series the spec allows, grouped as it groups them. */
export const SERIES_CODES = [
  'DGS1MO',
  'DGS3MO',
  'DGS6MO',
  'DGS1',
  'DGS2',
  'DGS3',
  'DGS5',
  'DGS7',
  'DGS10',
  'DGS20',
  'DGS30',
  'CPIAUCSL',
  'CPILFESL',
  'PCEPI',
  'UNRATE',
  'PAYEMS',
  'ICSA',
  'GDP',
  'GDPC1',
  'WALCL',
  'DFF',
  'M2SL',
  'DTWEXBGS',
  'DEXUSEU',
  'DCOILWTICO',
  'T10Y2Y',
] as const;
export type SeriesCode = (typeof SERIES_CODES)[number];

const SERIES_WINDOW_DAYS = 30;
/** Monthly and quarterly series have 0–1 points in 30 days; they return this many instead. */
const MIN_POINTS = 6;

interface SeriesMeta {
  title: string | null;
  units: string | null;
  frequency: string | null;
}

const Observations = Type.Object({
  observations: Type.Array(Type.Object({ date: Type.String(), value: Type.String() })),
});
const Series = Type.Object({
  seriess: Type.Array(Type.Object({ title: Type.String(), units: Type.String(), frequency: Type.String() })),
});

/** The latest value plus the last 30 days (or the last MIN_POINTS observations for slow series). */
export function toRows(seriesId: string, observations: Observation[], meta: SeriesMeta): Row[] {
  const latest = observations[0];
  if (!latest) throw noData(`FRED has no observations for ${seriesId}`);
  const cutoff = Date.parse(latest.date) - SERIES_WINDOW_DAYS * 86_400_000;
  const recent = observations.filter((o) => Date.parse(o.date) >= cutoff);
  const series = recent.length >= MIN_POINTS ? recent : observations.slice(0, MIN_POINTS);
  return [
    {
      series_id: seriesId,
      ...meta,
      date: latest.date,
      value: latest.value,
      series,
      series_window: recent.length >= MIN_POINTS ? `${SERIES_WINDOW_DAYS}d` : `last_${series.length}_observations`,
      as_of: parseUnixSeconds(latest.date),
    },
  ];
}

export default defineSource<SeriesCode>({
  type: 'economic-indicator',
  categories: ['economics', 'finance', 'macro', 'fred'],
  qShape: '<series_code>',
  example: 'DGS10',
  desc: '`<series_code>`; returns the latest value and a 30-day series',
  parseQ: oneOf(SERIES_CODES, '<series_code>'),
  ttlSeconds: 3600,
  deadlineMs: 5000,
  entityQ: (e) => e.ids.fred,
  upstreams: {
    fred: async (seriesId, { http, deadline }) => {
      const [obs, meta] = await Promise.all([
        http.json<Type.Static<typeof Observations>>('/fred/series/observations', Observations, {
          deadline,
          query: { series_id: seriesId, file_type: 'json', sort_order: 'desc', limit: 60 },
        }),
        http.json<Type.Static<typeof Series>>('/fred/series', Series, { deadline, query: { series_id: seriesId, file_type: 'json' } }),
      ]);
      const series = meta.seriess[0];
      if (!series) throw noData(`FRED does not know ${seriesId}`);
      const { title, units, frequency } = series;
      return toRows(seriesId, parseObservations(obs.observations), { title, units, frequency });
    },
    'fred-graph': async (seriesId, { http, deadline, clock }) => {
      const csv = await http.text('/graph/fredgraph.csv', { deadline, query: { id: seriesId, cosd: isoDaysAgo(clock.now(), 400) } });
      return toRows(seriesId, parseFredCsv(csv), { title: null, units: null, frequency: null });
    },
  },
});
