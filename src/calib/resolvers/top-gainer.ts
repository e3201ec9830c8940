import Type from 'typebox';
import { ApiError } from '../../core/errors.js';
import { CoinQ, coinIdOf, fetchRows, numberIn } from './data-query.js';
import { defineResolver } from './define.js';

/** Percent gains from baseline to now, per coin in order. */
export const gainsPct = (baseline: readonly number[], now: readonly number[]): number[] =>
  now.map((price, i) => (price / baseline[i]! - 1) * 100);

/** 1 iff the coin at `index` has the highest gain; coins tied for the highest all count as top gainers. */
export const isTopGainer = (gains: readonly number[], index: number): 0 | 1 => (gains[index]! >= Math.max(...gains) ? 1 : 0);

export default defineResolver({
  type: 'top_gainer',
  rule:
    "at expected_resolution_at svc reads crypto-price for every one of config.coins (data at most 2 minutes old); each coin's gain is usd / baseline_usd − 1 " +
    '(baseline_usd[i] belongs to coins[i]); outcome 1 iff config.coin has the highest gain (coins tied for the highest all count as top). ' +
    'A coin without a usd price is retried for an hour, then the claim expires.',
  config: Type.Object(
    {
      coins: Type.Array(CoinQ, { minItems: 2, maxItems: 10, uniqueItems: true }),
      baseline_usd: Type.Array(Type.Number({ exclusiveMinimum: 0 }), {
        minItems: 2,
        maxItems: 10,
        description: 'the price of each coin when the claim was made, in coins order',
      }),
      coin: CoinQ,
    },
    { additionalProperties: false },
  ),
  check({ coins, baseline_usd, coin }, registry) {
    const ids = coins.map((c, i) => coinIdOf(registry, c, `outcome_resolver.config.coins[${i}]`));
    if (new Set(ids).size !== ids.length)
      throw new ApiError('validation_failed', 'outcome_resolver.config.coins names one coin twice', {
        field: 'outcome_resolver.config.coins',
      });
    if (baseline_usd.length !== coins.length) {
      throw new ApiError('validation_failed', 'outcome_resolver.config.baseline_usd must have one price per coin', {
        field: 'outcome_resolver.config.baseline_usd',
      });
    }
    if (!ids.includes(coinIdOf(registry, coin, 'outcome_resolver.config.coin')))
      throw new ApiError('validation_failed', 'outcome_resolver.config.coin must be one of coins', {
        field: 'outcome_resolver.config.coin',
      });
  },
  async resolve({ coins, baseline_usd, coin }, { runner }) {
    const idOf = (c: string) => runner.prepare('crypto-price', c).key;
    const ids = coins.map(idOf);
    const result = await fetchRows(runner, 'crypto-price', ids.join(','));
    const prices = ids.map((id) =>
      numberIn(
        result?.rows.find((row) => row.coin === id),
        'usd',
      ),
    );
    if (!result || prices.some((p) => p === undefined)) return undefined;
    const gains = gainsPct(baseline_usd, prices as number[]);
    return {
      outcome: isTopGainer(gains, ids.indexOf(idOf(coin))),
      evidence: {
        resolver: 'top_gainer',
        coin,
        coins,
        baseline_usd,
        price_usd: prices,
        gain_pct: gains,
        as_of: result.as_of,
        source: result.source,
      },
    };
  },
});
