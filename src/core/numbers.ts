/** Rounding used by every computed field, so the same figure rounds the same way wherever it appears. */

/** Rounds to `digits` decimal places (2 → hundredths). */
export const roundTo = (n: number, digits: number): number => {
  const scale = 10 ** digits;
  return Math.round(n * scale) / scale;
};

/** Rounds to `digits` significant digits: for rates and prices whose magnitude varies by orders (1e-5 … 1e5). */
export const roundSig = (n: number, digits: number): number => Number(n.toPrecision(digits));

/** A fraction (0.05) as a percentage rounded to hundredths (5). */
export const pctOf = (fraction: number): number => roundTo(fraction * 100, 2);

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

export const mean = (xs: readonly number[]): number => sum(xs) / xs.length;
