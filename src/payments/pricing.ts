/**
 * The one price table, in USDC atomic units (6 decimals: 0.001 USD = 1000). Never floats.
 * Discovery files, the OpenAPI description and 402 challenges all read from here.
 */
export const PRICES = {
  backtest: 5000n,
  agentContext: 5000n,
  /** One calib-pro claim (record_claim?product=calib-pro): 0.002 USD. */
  calibProClaim: 2000n,
  dayPass: 990_000n,
  weekPass: 4_990_000n,
} as const;

/** Bundle tiers by query count (inclusive upper bounds). */
export const BUNDLE_TIERS = [
  { maxQueries: 2, price: 1000n },
  { maxQueries: 5, price: 3500n },
  { maxQueries: 10, price: 5000n },
  { maxQueries: 20, price: 8000n },
] as const;

export const MAX_BUNDLE_QUERIES = 20;
export const FREE_BUNDLE_QUERIES = 5;
export const PASS_HOURS = { day: 24, week: 168 } as const;
/** Pass prices in US cents, as a Stripe Checkout session reports `amount_total`. */
export const PASS_PRICE_CENTS = { day: 99, week: 499 } as const;
export const PASS_PRICES = { day: PRICES.dayPass, week: PRICES.weekPass } as const;

/** The price of a bundle, from the number of queries in the body being paid for. */
export function bundlePrice(queryCount: number): bigint {
  const tier = BUNDLE_TIERS.find((t) => queryCount <= t.maxQueries);
  if (!tier || queryCount < 1) throw new RangeError(`a bundle holds 1 to ${MAX_BUNDLE_QUERIES} queries`);
  return tier.price;
}

/**
 * What one paid query costs: a 1-query bundle (`POST /api/data/bundle`), the only paid single-query path.
 * Discovery advertises this figure, so it is exactly what the 402 challenge asks for.
 */
export const singleQueryPrice = (): bigint => bundlePrice(1);

/** 3500n → "0.0035": exact decimal USD text from atomic units. */
export function usd(atomic: bigint): string {
  const whole = atomic / 1_000_000n;
  const frac = (atomic % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** Saving of a full tier versus buying its queries one at a time as 1-query bundles (the spec's 30/50/60%). */
export const bundleSavingPct = (queries: number): number =>
  100 - Number((bundlePrice(queries) * 100n) / (bundlePrice(1) * BigInt(queries)));
