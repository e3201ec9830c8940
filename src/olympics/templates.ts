import type { SourceRunner, SourceSuccess } from '../sources/runner.js';
import { numberIn } from '../calib/resolvers/data-query.js';

export const DISCIPLINES = ['crypto', 'macro', 'weather'] as const;
export type Discipline = (typeof DISCIPLINES)[number];

/** What every model is shown: one fetched result, as svc's data route would serve it. */
export interface DataItem {
  label: string;
  type: string;
  q: string;
  source: string;
  /** Unix s of the data. */
  as_of: number;
  rows: Record<string, unknown>[];
}

export interface Resolver {
  type: string;
  config: Record<string, unknown>;
}

/** An event before it is stored: the question, the data it is asked over, and how its outcome is read. */
export interface Draft {
  question: string;
  data: DataItem[];
  resolver: Resolver;
}

export interface Template {
  id: string;
  discipline: Discipline;
  /** One event per slot of this length (Unix ms, aligned to the epoch). */
  everyMs: number;
  /** Seconds from opening to resolution. */
  horizonS: number;
  /** The event for a slot, from fresh data; undefined when the data is unavailable (the slot is skipped). */
  build(slot: number, runner: SourceRunner): Promise<Draft | undefined>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const TOP_GAINER_COINS = ['bitcoin', 'ethereum', 'solana', 'ripple', 'dogecoin'] as const;
const ABOVE_COINS = ['bitcoin', 'ethereum'] as const;
const BERLIN = '52.52,13.41';

async function fetchItem(runner: SourceRunner, type: string, q: string): Promise<SourceSuccess | undefined> {
  const result = await runner.run(type, q);
  return result.ok ? result : undefined;
}

const itemOf = (r: SourceSuccess): DataItem => ({
  label: `${r.type} ${r.q}`,
  type: r.type,
  q: r.q,
  source: r.source,
  as_of: r.as_of,
  rows: r.rows,
});

/** The first row's numeric field, with the item it came from; undefined when either is missing. */
type Reading = { item: DataItem; value: number };

async function reading(runner: SourceRunner, type: string, q: string, field: string): Promise<Reading | undefined> {
  const result = await fetchItem(runner, type, q);
  const value = numberIn(result?.rows[0], field);
  return result && value !== undefined ? { item: itemOf(result), value } : undefined;
}

/** Live templates: each reads fresh data and uses a calibration-ledger resolver. */
export const TEMPLATES: Template[] = [
  {
    id: 'crypto_above_24h',
    discipline: 'crypto',
    everyMs: DAY_MS,
    horizonS: 86_400,
    async build(slot, runner) {
      const coin = ABOVE_COINS[slot % ABOVE_COINS.length]!;
      const read = await reading(runner, 'crypto-price', coin, 'usd');
      if (!read) return undefined;
      return {
        question: `Will ${coin} (CoinGecko id) trade above ${read.value} USD, its price now, 24 hours from now?`,
        data: [read.item],
        resolver: { type: 'price_above', config: { coin, threshold_usd: read.value } },
      };
    },
  },
  {
    id: 'top_gainer_24h',
    discipline: 'crypto',
    everyMs: DAY_MS,
    horizonS: 86_400,
    async build(slot, runner) {
      const coin = TOP_GAINER_COINS[slot % TOP_GAINER_COINS.length]!;
      const result = await fetchItem(runner, 'crypto-price', TOP_GAINER_COINS.join(','));
      const prices = TOP_GAINER_COINS.map((id) =>
        numberIn(
          result?.rows.find((row) => row.coin === id),
          'usd',
        ),
      );
      if (!result || prices.some((p) => p === undefined)) return undefined;
      return {
        question: `Of ${TOP_GAINER_COINS.join(', ')}, will ${coin} gain the most (percent change of its USD price) over the next 24 hours?`,
        data: [itemOf(result)],
        resolver: { type: 'top_gainer', config: { coins: [...TOP_GAINER_COINS], baseline_usd: prices, coin } },
      };
    },
  },
  {
    id: 'treasury_10y_week',
    discipline: 'macro',
    everyMs: 7 * DAY_MS,
    horizonS: 7 * 86_400,
    async build(_slot, runner) {
      const read = await reading(runner, 'economic-indicator', 'DGS10', 'value');
      if (!read) return undefined;
      return {
        question: `Will the latest 10-year Treasury constant-maturity yield (FRED DGS10) one week from now be above ${read.value}%, the latest value now?`,
        data: [read.item],
        resolver: { type: 'value_above', config: { type: 'economic-indicator', q: 'DGS10', field: 'value', threshold: read.value } },
      };
    },
  },
  {
    id: 'berlin_temp_24h',
    discipline: 'weather',
    everyMs: DAY_MS,
    horizonS: 86_400,
    async build(_slot, runner) {
      const read = await reading(runner, 'weather', BERLIN, 'temp_c');
      if (!read) return undefined;
      return {
        question: `Will the current temperature in Berlin (${BERLIN}) 24 hours from now be above ${read.value} °C, the reading now?`,
        data: [read.item],
        resolver: { type: 'value_above', config: { type: 'weather', q: BERLIN, field: 'temp_c', threshold: read.value } },
      };
    },
  },
];
