import Type from 'typebox';
import { oneOf } from './lib/q.js';
import { latestWithSeries } from './lib/series.js';
import type { Observation } from './lib/fred.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { yahooChart, yahooLast, type YahooLast } from './lib/yahoo-last.js';

export const METALS = ['gold', 'silver', 'platinum'] as const;
export type Metal = (typeof METALS)[number];

/** LBMA benchmark files (USD per troy ounce), gold-api.com symbols and the COMEX/NYMEX front-month futures on Yahoo. */
const METAL: Record<Metal, { file: string; benchmark: string; symbol: string; future: string }> = {
  gold: { file: '/json/gold_pm.json', benchmark: 'LBMA Gold Price PM', symbol: 'XAU', future: 'GC=F' },
  silver: { file: '/json/silver.json', benchmark: 'LBMA Silver Price', symbol: 'XAG', future: 'SI=F' },
  platinum: { file: '/json/platinum_pm.json', benchmark: 'LBMA Platinum Price PM', symbol: 'XPT', future: 'PL=F' },
};
const HOUR_S = 3600;
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
  { metal, benchmark: METAL[metal].benchmark, currency: 'USD', ...latestWithSeries(lbmaObservations(raw), 'price_usd_oz', POINTS) },
];

/** A point-in-time price (the spot, a future's last trade): the series is that single point. */
function latestOnly(metal: Metal, benchmark: string, price: number, currency: string | null, asOf: number): Row {
  const date = new Date(asOf * 1000).toISOString().slice(0, 10);
  return { metal, benchmark, currency, date, price_usd_oz: price, series: [{ date, price_usd_oz: price }], as_of: asOf };
}

/** gold-api.com has the live spot only. */
export function fromGoldApi(metal: Metal, raw: GoldApi): Row[] {
  const asOf = raw.updatedAt ? parseUnixSeconds(raw.updatedAt) : NaN;
  if (!Number.isFinite(asOf)) throw noData('gold-api.com sent a price without its time');
  return [latestOnly(metal, `${METAL[metal].symbol}/USD spot`, raw.price, 'USD', asOf)];
}

/** The front-month future's last trade, in the currency Yahoo states (USD; another is kept apart as `quote_mismatch`). */
export function fromFuture(metal: Metal, last: YahooLast): Row[] {
  if (last.as_of === undefined) throw noData('Yahoo sent a future without its time');
  return [latestOnly(metal, `${METAL[metal].future} front-month future`, last.price, last.currency, last.as_of)];
}

/**
 * Rows (one): metal, benchmark, currency (USD), date, price_usd_oz, series [{date, price_usd_oz}] (newest first, up to 30
 * fixing days), and `corroboration` (issue 37): the LBMA fix, gold-api.com's spot and the front-month future are asked
 * at once; price_usd_oz is the median of those that agree, the other fields the first used source's (LBMA's series).
 */
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
  corroboration: {
    item: 'metal',
    value: 'price_usd_oz',
    quote: 'currency',
    rule: {
      quorum: 2,
      // Wide: a future carries its carry premium over spot, and the fix is up to days old; a unit or decimals bug is not.
      outlierBps: 200,
      // Spot and futures pause from Friday 22:00 UTC to Sunday 23:00.
      staleAfterS: 50 * HOUR_S,
      // A fix each London business day, dated at 00:00 UTC: Thursday's stands until Tuesday's afternoon over Easter.
      staleAfterSBySource: { lbma: 6 * 24 * HOUR_S },
    },
  },
  upstreams: {
    lbma: async (metal, { http, deadline }) => fromLbma(metal, await http.json<LbmaFile>(METAL[metal].file, LbmaFile, { deadline })),
    'gold-api': async (metal, { http, deadline }) =>
      fromGoldApi(metal, await http.json<GoldApi>(`/price/${METAL[metal].symbol}`, GoldApi, { deadline })),
    yahoo: async (metal, { http, deadline }) => fromFuture(metal, yahooLast(await yahooChart(http, METAL[metal].future, deadline))),
  },
});
