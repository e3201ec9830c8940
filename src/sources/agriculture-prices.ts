import { oneOf } from './lib/q.js';
import { isoDaysAgo, parseFredCsv, type Observation } from './lib/fred.js';
import { latestWithSeries } from './lib/series.js';
import { roundTo } from '../core/numbers.js';
import { YahooChart, yahooDailyCloses } from '../upstream/formats/yahoo-chart.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

export const GRAINS = ['wheat', 'corn', 'soybeans', 'rice', 'barley'] as const;
export type Grain = (typeof GRAINS)[number];

/**
 * IMF global prices on FRED (USD per metric ton, monthly) and the CBOT future used as a daily
 * proxy. `toUsdPerTon` converts the future's quote: grains trade in US cents per bushel (60 lb
 * wheat and soybeans, 56 lb corn), rough rice in USD per hundredweight. CBOT has no barley future.
 */
const GRAIN: Record<Grain, { fred: string; future?: { symbol: string; toUsdPerTon: number } }> = {
  wheat: { fred: 'PWHEAMTUSDM', future: { symbol: 'ZW=F', toUsdPerTon: 2204.62262 / 60 / 100 } },
  corn: { fred: 'PMAIZMTUSDM', future: { symbol: 'ZC=F', toUsdPerTon: 2204.62262 / 56 / 100 } },
  soybeans: { fred: 'PSOYBUSDM', future: { symbol: 'ZS=F', toUsdPerTon: 2204.62262 / 60 / 100 } },
  rice: { fred: 'PRICENPQUSDM', future: { symbol: 'ZR=F', toUsdPerTon: 2204.62262 / 100 } },
  barley: { fred: 'PBARLUSDM' },
};
const MONTHS = 12;
const DAYS = 30;

export const fromFred = (grain: Grain, observations: Observation[]): Row[] => [
  {
    grain,
    series_id: GRAIN[grain].fred,
    benchmark: 'IMF global price (FRED)',
    frequency: 'monthly',
    ...latestWithSeries(observations, 'price_usd_mt', MONTHS),
  },
];

/** Daily futures closes (null on halted days) → USD per metric ton, newest first. */
export function fromYahoo(grain: Grain, raw: YahooChart): Row[] {
  const future = GRAIN[grain].future!;
  const observations = yahooDailyCloses(raw)
    .map((o) => ({ date: o.date, value: roundTo(o.value * future.toUsdPerTon, 2) }))
    .reverse();
  return [
    {
      grain,
      series_id: future.symbol,
      benchmark: 'CBOT front-month future (Yahoo)',
      frequency: 'daily',
      ...latestWithSeries(observations, 'price_usd_mt', DAYS),
    },
  ];
}

/**
 * Rows (one): grain, series_id, benchmark, frequency, date, price_usd_mt, series [{date, price_usd_mt}]
 * (newest first: 12 months, or 30 days from the futures proxy).
 */
export default defineSource<Grain>({
  type: 'agriculture-prices',
  categories: ['commodities', 'agriculture'],
  qShape: '<grain_name>',
  example: 'wheat',
  desc: '`<grain_name>`; commodity-grain index proxy',
  parseQ: oneOf(GRAINS, '<grain_name>', (s) => s.toLowerCase()),
  keyOf: (grain) => grain,
  ttlSeconds: 6 * 3600,
  deadlineMs: 5000,
  entityQ: (e) => e.ids.grain,
  upstreams: {
    'fred-graph': async (grain, { http, deadline, clock }) => {
      const csv = await http.text('/graph/fredgraph.csv', {
        deadline,
        query: { id: GRAIN[grain].fred, cosd: isoDaysAgo(clock.now(), 500) },
      });
      return fromFred(grain, parseFredCsv(csv));
    },
    yahoo: async (grain, { http, deadline }) => {
      const future = GRAIN[grain].future;
      if (!future) throw noData(`no futures proxy trades ${grain}`);
      return fromYahoo(
        grain,
        await http.json<YahooChart>(`/v8/finance/chart/${encodeURIComponent(future.symbol)}`, YahooChart, {
          deadline,
          query: { interval: '1d', range: '1mo' },
        }),
      );
    },
  },
});
