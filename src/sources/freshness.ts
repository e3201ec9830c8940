import type { Row } from './define.js';

/**
 * How fresh a row is, on every row of every data type (issue 35): `as_of` (Unix seconds of the upstream's own
 * observation when it gives one, else of svc's fetch, and `as_of_kind` says which), `next_update_at` (Unix seconds)
 * for types whose upstream publishes on a known schedule, and, stamped at the moment of each answer, `age_s` and
 * `stale` (true exactly when the value is served past its type's TTL: a stale-while-revalidate or circuit-open
 * fallback, or the time machine). Connectors only supply the observation time; everything else is set here.
 */
export const FRESHNESS_FIELDS = ['as_of', 'as_of_kind', 'next_update_at', 'age_s', 'stale'] as const;

/** When the upstream next publishes, given a row and its observation time (Unix s); undefined when unknown. */
export type NextUpdate = (asOfS: number, row: Row) => number | undefined;

/** Unix seconds of a time a connector gave in seconds or milliseconds (a value past 1e11 s is year 5138: it is ms). */
const toSeconds = (value: number) => Math.floor(value > 1e11 ? value / 1000 : value);

/** The fields fixed when a row is fetched: its observation time, which kind it is, and the next publication. */
export function observed(row: Row, fetchedAtMs: number, nextUpdate?: NextUpdate): Row {
  const given = typeof row.as_of === 'number' && Number.isFinite(row.as_of) && row.as_of > 0;
  const asOf = given ? toSeconds(row.as_of as number) : Math.floor(fetchedAtMs / 1000);
  const stamped = { ...row, as_of: asOf, as_of_kind: given ? 'source' : 'fetched' };
  const next = nextUpdate?.(asOf, stamped);
  return next ? { ...stamped, next_update_at: next } : stamped;
}

/** A row's data without its freshness fields: what cursors hash and diffs compare. */
export function withoutFreshness(row: Row): Row {
  const data = { ...row };
  for (const field of FRESHNESS_FIELDS) delete data[field];
  return data;
}

export interface Served {
  /** Unix ms when svc fetched the value. */
  fetchedAtMs: number;
  ttlSeconds: number;
  /** Unix ms of the answer. */
  nowMs: number;
}

/** Past its TTL at the moment of the answer. */
export const isStale = ({ fetchedAtMs, ttlSeconds, nowMs }: Served): boolean => nowMs - fetchedAtMs > ttlSeconds * 1000;

/** The rows as served now: `age_s` (whole seconds since `as_of`, never negative) and `stale`. */
export function servedRows(rows: Row[], served: Served): Row[] {
  const nowS = Math.floor(served.nowMs / 1000);
  const stale = isStale(served);
  return rows.map((row) => ({ ...row, age_s: Math.max(0, nowS - Number(row.as_of)), stale }));
}
