import Type from 'typebox';
import { oneOf } from './lib/q.js';
import { latestWithSeries } from './lib/series.js';
import type { Observation } from './lib/fred.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';

export const METALS = ['gold', 'silver', 'platinum'] as const;
export type Metal = (typeof METALS)[number];

/** LBMA benchmark files (USD per troy ounce) and gold-api.com symbols. */
const METAL: Record<Metal, { file: string; benchmark: string; symbol: string }> = {
  gold: { file: '/json/gold_pm.json', benchmark: 'LBMA Gold Price PM', symbol: 'XAU' },
  silver: { file: '/json/silver.json', benchmark: 'LBMA Silver Price', symbol: 'XAG' },
  platinum: { file: '/json/platinum_pm.json', benchmark: 'LBMA Platinum Price PM', symbol: 'XPT' },
};
const POINTS = 30;
/** Fixing days are ~21 a month; the window also drops stray old rows when the file has gaps. */
const WINDOW_MS = 45 * 86_400_000;

/** One row per fixing day, oldest first since the series start; `v` = [USD, GBP, EUR], null before a currency was fixed. */
const LbmaFile = Type.Array(Type.Object({ d: Type.String(), v: Type.Array(Type.Union([Type.Number(), Type.Null()])) }));
type LbmaFile = Type.Static<typeof LbmaFile>;

const GoldApi = Type.Object({ price: Type.Number(), symbol: Type.Optional(Type.String()), updatedAt: Type.Optional(Type.String()) });
type GoldApi = Type.Static<typeof GoldApi>;

/** The file holds decades of history: only the newest USD fixes (at most 30, within 45 days) are kept, newest first. */
export function lbmaObservations(raw: LbmaFile): Observation[] {
  const fixes = raw.filter((row) => typeof row.v[0] === 'number').slice(-POINTS);
  const cutoff = Date.parse(fixes.at(-1)?.d ?? '') - WINDOW_MS;
  return fixes
    .filter((row) => Date.parse(row.d) >= cutoff)
    .map((row) => ({ date: row.d, value: row.v[0] as number }))
    .reverse();
}

export const fromLbma = (metal: Metal, raw: LbmaFile): Row[] => [
  { metal, benchmark: METAL[metal].benchmark, ...latestWithSeries(lbmaObservations(raw), 'price_usd_oz', POINTS) },
];

/** gold-api.com has the live spot only, so the series is that single point. */
export function fromGoldApi(metal: Metal, raw: GoldApi): Row[] {
  const asOf = raw.updatedAt ? parseUnixSeconds(raw.updatedAt) : NaN;
  if (!Number.isFinite(asOf)) throw noData('gold-api.com sent a price without its time');
  const date = new Date(asOf * 1000).toISOString().slice(0, 10);
  const series = [{ date, price_usd_oz: raw.price }];
  return [{ metal, benchmark: `${METAL[metal].symbol}/USD spot`, date, price_usd_oz: raw.price, series, as_of: asOf }];
}

/** Rows (one): metal, benchmark, date, price_usd_oz, series [{date, price_usd_oz}] (newest first, up to 30 fixing days). */
export default defineSource<Metal>({
  type: 'commodity-metals',
  categories: ['commodities', 'finance'],
  qShape: '<metal_name>',
  example: 'gold',
  desc: '`<metal_name>` (gold, silver, platinum); daily spot series',
  parseQ: oneOf(METALS, '<metal_name>', (s) => s.toLowerCase()),
  keyOf: (metal) => metal,
  ttlSeconds: 3600,
  deadlineMs: 5000,
  entityQ: (e) => e.ids.metal,
  upstreams: {
    lbma: async (metal, { http, deadline }) => fromLbma(metal, await http.json<LbmaFile>(METAL[metal].file, LbmaFile, { deadline })),
    'gold-api': async (metal, { http, deadline }) =>
      fromGoldApi(metal, await http.json<GoldApi>(`/price/${METAL[metal].symbol}`, GoldApi, { deadline })),
  },
});
