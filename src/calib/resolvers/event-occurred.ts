import Type from 'typebox';
import type { Row } from '../../sources/define.js';
import { DataQuery, checkDataQuery, fetchRows } from './data-query.js';
import { defineResolver } from './define.js';

/** Data types whose rows are dated events or news items. */
export const EVENT_CATEGORIES = ['news', 'geopolitics', 'conflict', 'public-health', 'regulatory', 'legal'] as const;

const normalize = (text: string) => text.normalize('NFKC').toLowerCase();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `term` occurs in `text` as a whole word or phrase: not preceded or followed by a letter or digit. */
export function containsTerm(text: string, term: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(normalize(term).trim())}(?![\\p{L}\\p{N}])`, 'u').test(normalize(text));
}

/** The text fields an event row is matched on: every string field but links and the upstream name. */
const textOf = (row: Row): string[] =>
  Object.entries(row)
    .filter(([field, value]) => typeof value === 'string' && field !== 'url' && !field.endsWith('_url') && field !== 'source')
    .map(([, value]) => value as string);

/** A row matches when it is dated at or after `sinceS` and every term occurs in one of its text fields. */
export const matches = (row: Row, terms: readonly string[], sinceS: number): boolean =>
  Number(row.as_of) >= sinceS && terms.every((term) => textOf(row).some((text) => containsTerm(text, term)));

export default defineResolver({
  type: 'event_occurred',
  rule:
    `for news and event types (categories ${EVENT_CATEGORIES.join(', ')}): at expected_resolution_at svc runs config.type with config.q; outcome 1 iff some row dated ` +
    "(its as_of, the item's own time where the type has one) at or after the claim was recorded contains every one of config.terms, case-insensitively after Unicode NFKC " +
    'normalization, as a whole word or phrase (no letter or digit right before or after it), in any of its text fields (string fields other than url, *_url and source); else 0. ' +
    "Only the items the type returns at that moment are seen (a feed that keeps 24 hours forgets older items), so pick ttl_hours within the feed's window.",
  config: Type.Object(
    {
      ...DataQuery,
      terms: Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), {
        minItems: 1,
        maxItems: 10,
        description: 'every term must occur in the row',
      }),
    },
    { additionalProperties: false },
  ),
  check: (config, registry) =>
    checkDataQuery(config, registry, (categories) => categories.some((c) => (EVENT_CATEGORIES as readonly string[]).includes(c))),
  async resolve({ type, q, terms }, { runner, claim }) {
    const result = await fetchRows(runner, type, q);
    if (!result) return undefined;
    const sinceS = Math.floor(claim.created_at / 1000);
    const match = result.rows.find((row) => matches(row, terms, sinceS));
    return {
      outcome: match ? 1 : 0,
      evidence: {
        resolver: 'event_occurred',
        type,
        q,
        terms,
        since: sinceS,
        rows_checked: result.rows.length,
        match: match ?? null,
        as_of: result.as_of,
        source: result.source,
      },
    };
  },
});
