import { canonicalJson } from '../core/canonical-json.js';
import type { Row } from '../sources/define.js';
import { withoutFreshness } from '../sources/freshness.js';

export interface RowDiff {
  added: Row[];
  removed: Row[];
  updated: Row[];
}

/** Fields that identify a row across fetches, in order of preference. */
const IDENTITY_FIELDS = ['id', 'coin', 'symbol', 'ticker', 'series_id', 'pair', 'url', 'name', 'title'] as const;

/** A row's identity: its first identity field, else its position (rows of fixed-shape series). */
export function rowIdentity(row: Row, index: number): string {
  const field = IDENTITY_FIELDS.find((f) => row[f] !== undefined && row[f] !== null);
  return field ? `${field}:${String(row[field])}` : `#${index}`;
}

/** What moved between two versions of a result; freshness fields (as_of, age_s, …) alone changing is not an update. */
export function diffRows(before: Row[], after: Row[]): RowDiff {
  const content = (row: Row) => canonicalJson(withoutFreshness(row));
  const old = new Map(before.map((row, i) => [rowIdentity(row, i), row]));
  const seen = new Set<string>();
  const diff: RowDiff = { added: [], removed: [], updated: [] };
  after.forEach((row, i) => {
    const id = rowIdentity(row, i);
    seen.add(id);
    const previous = old.get(id);
    if (!previous) diff.added.push(row);
    else if (content(previous) !== content(row)) diff.updated.push(row);
  });
  for (const [id, row] of old) if (!seen.has(id)) diff.removed.push(row);
  return diff;
}
