import { noData } from '../../upstream/errors.js';
import type { Observation } from './fred.js';
import type { Row } from '../define.js';
import { parseUnixSeconds } from '../../core/clock.js';

/** Midnight UTC of a `YYYY-MM-DD` date, in Unix seconds: the `as_of` of a daily or monthly observation. */
export const dayStart = (date: string): number => parseUnixSeconds(`${date}T00:00:00Z`);

/**
 * Newest-first observations → the fields shared by the spot-series types: the latest `date`, the
 * latest value under the type's own unit-bearing field name, and the last `limit` points.
 */
export function latestWithSeries(observations: Observation[], field: string, limit: number): Row {
  const latest = observations[0];
  if (!latest) throw noData('the upstream sent no observations');
  return {
    date: latest.date,
    [field]: latest.value,
    series: observations.slice(0, limit).map((o) => ({ date: o.date, [field]: o.value })),
    as_of: dayStart(latest.date),
  };
}
