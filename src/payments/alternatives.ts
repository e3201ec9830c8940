import { FREE_BUNDLE_QUERIES, PASS_HOURS, PASS_PRICES, singleQueryPrice, usd } from './pricing.js';
import type { PassKind } from './passes.js';

/** What a paid operation gives for nothing, and how to ask for it. */
interface FreeTier {
  how: string;
  gives: string;
}

/**
 * The free tier of each paid operation, by the path of the resource paid for (the one place that says it, next to
 * the prices). A 402 names it so that an agent that cannot pay still gets an answer.
 */
const FREE_TIERS: Record<string, FreeTier> = {
  '/api/data/bundle': {
    how: 'the same request with ?free=1 (or "free": true in the body)',
    gives: `at most ${FREE_BUNDLE_QUERIES} queries, one row each`,
  },
  '/api/v1/backtest': {
    how: 'the same request with free=1',
    gives: 'the last 100 candles of the range, with a cursor a paid call continues',
  },
  '/api/v1/agent-context': {
    how: 'the same request with free=1',
    gives: 'each primary fetch with one row; the supporting fetches listed for the agent to run',
  },
  '/api/v1/calib/record_claim': { how: 'the same request without product=calib-pro', gives: 'a plain claim (no calib-pro alerts)' },
};

export type Alternative =
  | { kind: 'free_tier'; price_usd: '0'; how: string; gives: string }
  | { kind: 'pass'; pass: PassKind; price_usd: string; amount: string; hours: number; buy: string; pays_off_after_calls: number }
  | { kind: 'per_call'; price_usd: string; amount: string; how: string };

/**
 * The cheaper ways to the same answer that a 402 lists beside its price: the operation's free tier, a day or
 * week pass (with how many calls at this price it takes to pay off), and for a pass itself paying per call.
 */
export function alternativesTo(resource: string, amount: bigint, publicUrl: string): Alternative[] {
  const path = new URL(resource).pathname;
  const passBought = /^\/api\/v1\/pass\/(day|week)$/.exec(path)?.[1] as PassKind | undefined;
  if (passBought) {
    const perCall = singleQueryPrice();
    return [
      {
        kind: 'per_call',
        price_usd: usd(perCall),
        amount: perCall.toString(),
        how: `pay each call instead (a one-query bundle costs ${usd(perCall)} USD); previews are free`,
      },
    ];
  }
  const free = FREE_TIERS[path];
  const passes = (Object.keys(PASS_HOURS) as PassKind[]).map((pass): Alternative => ({
    kind: 'pass',
    pass,
    price_usd: usd(PASS_PRICES[pass]),
    amount: PASS_PRICES[pass].toString(),
    hours: PASS_HOURS[pass],
    buy: `POST ${publicUrl}/api/v1/pass/${pass}`,
    pays_off_after_calls: Number((PASS_PRICES[pass] + amount - 1n) / amount),
  }));
  return [...(free ? [{ kind: 'free_tier' as const, price_usd: '0' as const, ...free }] : []), ...passes];
}

/** The price line of a 402: atomic units, decimal USD and the asset. */
export const priceOf = (amount: bigint) => ({ amount: amount.toString(), usd: usd(amount), asset: 'USDC' });
