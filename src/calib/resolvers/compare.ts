import Type from 'typebox';
import type { Row } from '../../sources/define.js';
import type { SourceRunner } from '../../sources/runner.js';
import { CoinQ, DataQuery, checkDataQuery, coinIdOf, fetchRows, numberIn } from './data-query.js';
import { defineResolver, type Resolution } from './define.js';

export const ValueConfig = Type.Object(
  {
    ...DataQuery,
    field: Type.String({ pattern: '^[a-z0-9_]{1,64}$', description: 'a numeric field of the rows, e.g. usd, temp_c, value' }),
    threshold: Type.Number(),
    where: Type.Optional(
      Type.Object(
        { field: Type.String({ pattern: '^[a-z0-9_]{1,64}$' }), equals: Type.Union([Type.String({ maxLength: 200 }), Type.Number()]) },
        {
          additionalProperties: false,
          description: 'picks the first row whose field equals this (compared as text); default: the first row',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export type Direction = 'above' | 'below';

/** outcome 1 iff the value is strictly above (below) the threshold. */
export const beyond = (value: number, threshold: number, direction: Direction): 0 | 1 =>
  (direction === 'above' ? value > threshold : value < threshold) ? 1 : 0;

/** Reads one numeric field of one row of a data type and compares it; undefined while the value is unavailable. */
export async function compareValue(
  runner: SourceRunner,
  query: { type: string; q: string; field: string; threshold: number; where?: { field: string; equals: string | number } },
  direction: Direction,
): Promise<(Resolution & { value: number }) | undefined> {
  const result = await fetchRows(runner, query.type, query.q);
  const where = query.where;
  const row: Row | undefined = where ? result?.rows.find((r) => String(r[where.field]) === String(where.equals)) : result?.rows[0];
  const value = numberIn(row, query.field);
  if (!result || value === undefined) return undefined;
  return {
    outcome: beyond(value, query.threshold, direction),
    value,
    evidence: { ...query, value, as_of: result.as_of, source: result.source },
  };
}

const PriceConfig = Type.Object(
  {
    coin: CoinQ,
    threshold_usd: Type.Number({ exclusiveMinimum: 0 }),
  },
  { additionalProperties: false },
);

/** price_above / price_below: the crypto-price type's `usd` for one coin against a USD threshold. */
export const priceResolver = (direction: Direction) =>
  defineResolver({
    type: `price_${direction}`,
    rule: `at expected_resolution_at svc reads crypto-price for config.coin (data at most 2 minutes old); outcome 1 iff its usd is strictly ${direction} threshold_usd.`,
    config: PriceConfig,
    check: ({ coin }, registry) => void coinIdOf(registry, coin, 'outcome_resolver.config.coin'),
    async resolve({ coin, threshold_usd }, { runner }) {
      const read = await compareValue(runner, { type: 'crypto-price', q: coin, field: 'usd', threshold: threshold_usd }, direction);
      if (!read) return undefined;
      const { as_of, source } = read.evidence;
      return {
        outcome: read.outcome,
        evidence: {
          resolver: `price_${direction}`,
          coin,
          threshold_usd,
          price_usd: read.value,
          as_of,
          source,
          above: read.value > threshold_usd,
        },
      };
    },
  });

/** value_above / value_below: any numeric field of any data type against a threshold. */
export const valueResolver = (direction: Direction) =>
  defineResolver({
    type: `value_${direction}`,
    rule:
      `at expected_resolution_at svc runs config.type with config.q (data at most 2 minutes old), takes the first row (or the first whose where.field equals where.equals, compared as text) ` +
      `and reads config.field as a number (numeric text counts); outcome 1 iff it is strictly ${direction} threshold. A missing or non-numeric value is retried for an hour, then the claim expires.`,
    config: ValueConfig,
    check: (config, registry) => checkDataQuery(config, registry),
    async resolve(config, { runner }) {
      const read = await compareValue(runner, config, direction);
      return read && { outcome: read.outcome, evidence: { resolver: `value_${direction}`, ...read.evidence } };
    },
  });
