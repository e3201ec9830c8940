import { roundTo } from '../core/numbers.js';

/**
 * The insight formulas, pure and unit-free. Weights are fractions of market value; percentages are
 * rounded only where the route reports them.
 */
export interface Valued {
  value: number;
}

/** w_i = value_i / Σ value. */
export function weights(values: number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  return total > 0 ? values.map((v) => v / total) : values.map(() => 0);
}

/** Herfindahl-Hirschman index Σ w_i²: 1/n for n equal positions, 1 for a single one. */
export const hhi = (w: number[]): number => w.reduce((a, x) => a + x * x, 0);

/** Share of market value per key (asset class, sector, currency), as percentages summing to 100. */
export function allocation<T extends Valued>(items: T[], keyOf: (item: T) => string): Record<string, number> {
  const total = items.reduce((a, i) => a + i.value, 0);
  const sums = new Map<string, number>();
  for (const item of items) sums.set(keyOf(item), (sums.get(keyOf(item)) ?? 0) + item.value);
  return Object.fromEntries([...sums].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, total > 0 ? roundTo((v / total) * 100, 2) : 0]));
}

/** Unrealized P/L over the positions with a known cost basis: Σ (value − cost) and that over Σ cost. */
export function unrealized(items: (Valued & { cost_basis: number | null })[]): { usd: number; pct: number | null; covered: number } | null {
  const known = items.filter((i) => i.cost_basis !== null && i.cost_basis > 0);
  if (known.length === 0) return null;
  const cost = known.reduce((a, i) => a + i.cost_basis!, 0);
  const pl = known.reduce((a, i) => a + i.value - i.cost_basis!, 0);
  return { usd: pl, pct: cost > 0 ? (pl / cost) * 100 : null, covered: known.length };
}

/**
 * The portfolio's value per UTC day from each position's daily closes: V_d = Σ quantity_i × close_i,d
 * over the days every position has a close (plus a constant part, e.g. cash).
 */
export function valueSeries(
  positions: { quantity: number; closes: { t: number; c: number }[] }[],
  constant = 0,
): { day: number; value: number }[] {
  const byDay = positions.map((p) => new Map(p.closes.map((k) => [Math.floor(k.t / 86_400), k.c])));
  const days = [...(byDay[0]?.keys() ?? [])].filter((d) => byDay.every((m) => m.has(d))).sort((a, b) => a - b);
  return days.map((day) => ({ day, value: constant + positions.reduce((a, p, i) => a + p.quantity * byDay[i]!.get(day)!, 0) }));
}

/** Simple returns r_d = V_d / V_{d−1} − 1. */
export const returns = (series: { value: number }[]): number[] => series.slice(1).map((s, i) => s.value / series[i]!.value - 1);

/** Sample standard deviation (n − 1); null below two observations. */
export function stdev(xs: number[]): number | null {
  if (xs.length < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
}

/** Largest peak-to-trough fall max_d (peak_d − V_d) / peak_d, with peak_d the highest value up to day d. */
export function maxDrawdown(series: { value: number }[]): number | null {
  if (series.length < 2) return null;
  let peak = -Infinity;
  let worst = 0;
  for (const { value } of series) {
    peak = Math.max(peak, value);
    if (peak > 0) worst = Math.max(worst, (peak - value) / peak);
  }
  return worst;
}
