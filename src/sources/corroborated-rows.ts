import { sha256Tagged } from '../core/canonical-json.js';
import type { UpstreamError } from '../upstream/errors.js';
import { corroborate, type Corroboration, type CorroborationRule, type Observation } from './corroboration.js';
import type { Row } from './define.js';
import { withoutFreshness } from './freshness.js';
import type { CachedValue } from './result.js';

/** How a type is corroborated: its rule, and the row fields naming the item, its value and the value's currency. */
export interface CorroborationSpec {
  rule: CorroborationRule;
  /** crypto-price: `coin`; each source's rows carry the value, its quote and `as_of` for it. */
  item: string;
  /** The field of the value: `price` unless said (forex: `rate`, units of the symbol per base). */
  value?: string;
  /** The field of the value's currency: `quote` unless said (forex: `symbol`); null there means index points. */
  quote?: string;
}

const valueField = (spec: CorroborationSpec) => spec.value ?? 'price';
const quoteField = (spec: CorroborationSpec) => spec.quote ?? 'quote';

/** One source's answer so far: stamped rows, a failure, or nothing yet (`late`: still answering when svc signed). */
export type SourceAnswer = { value: CachedValue } | { error: UpstreamError } | 'late';

/** The error a source that failed is listed with: its failure reason, `no_key` when its key is not set. */
function missing(source: string, error: UpstreamError): Observation {
  if (error.reason === 'no_data') return { source, missing: 'not_listed' };
  return { source, missing: 'unavailable', error: error.reason === 'upstream_key_missing' ? 'no_key' : error.reason };
}

function observationOf(source: string, answer: SourceAnswer, spec: CorroborationSpec, item: unknown): Observation {
  if (answer === 'late') return { source, missing: 'unavailable', error: 'late' };
  if ('error' in answer) return missing(source, answer.error);
  const row = answer.value.rows.find((r) => r[spec.item] === item);
  if (!row) return { source, missing: 'not_listed' };
  const { as_of, as_of_kind } = row as { as_of: number; as_of_kind: 'source' | 'fetched' };
  const quote = (row[quoteField(spec)] as string | null) ?? 'points';
  return { source, value: Number(row[valueField(spec)]), quote, as_of, as_of_kind };
}

/** Every item any source priced, in the order the sources (in declared order) list them. */
function itemsOf(answers: Map<string, SourceAnswer>, spec: CorroborationSpec): unknown[] {
  const items = new Set<unknown>();
  for (const answer of answers.values())
    if (typeof answer === 'object' && 'value' in answer) for (const row of answer.value.rows) items.add(row[spec.item]);
  return [...items];
}

const rowsOf = (answer: SourceAnswer | undefined) => (typeof answer === 'object' && 'value' in answer ? answer.value.rows : []);

/**
 * One row per item: the fields of the first used source (the declared priority: CoinGecko's market cap, say), the
 * value the median of the used values (`usd` too when the row has it), `as_of` the oldest used observation, and the
 * `corroboration` block naming every source asked. The first used source quotes the median's currency, so its quote
 * field is the row's.
 */
export function corroboratedRows(answers: Map<string, SourceAnswer>, spec: CorroborationSpec): Row[] {
  return itemsOf(answers, spec).flatMap((item) => {
    const observations = [...answers].map(([source, answer]) => observationOf(source, answer, spec, item));
    const result = corroborate(observations, spec.rule);
    if (!result) return [];
    const used = result.corroboration.sources.filter((s) => s.used);
    const chosen = used[0]?.source ?? observations.find((o) => 'quote' in o && o.quote === result.quote)!.source;
    const base = rowsOf(answers.get(chosen)).find((r) => r[spec.item] === item)!;
    const asOf = used.length ? Math.min(...used.map((s) => s.as_of!)) : base.as_of;
    // `usd` keeps its place in the row, and is there only when the chosen source gives one (a USD quote).
    const usd = 'usd' in base ? { usd: result.price } : {};
    const value = { [valueField(spec)]: result.price };
    return [{ ...base, ...value, ...usd, as_of: asOf, corroboration: result.corroboration }];
  });
}

/** The corroborated answer, or undefined when no source priced anything. */
export function corroboratedValue(answers: Map<string, SourceAnswer>, spec: CorroborationSpec): CachedValue | undefined {
  const rows = corroboratedRows(answers, spec);
  if (rows.length === 0) return undefined;
  const fetchedAt = Math.min(...[...answers.values()].flatMap((a) => (typeof a === 'object' && 'value' in a ? [a.value.fetched_at] : [])));
  return {
    source: String(rows[0]!.source),
    as_of: Math.max(...rows.map((r) => r.as_of as number)),
    fetched_at: fetchedAt,
    rows,
    rows_hash: sha256Tagged(rows.map(withoutFreshness)),
  };
}

/**
 * Whether an answer may be cached as settled: not when a row is disputed, nor when it was signed before a source
 * answered (`late`). Such answers are recomputed from each source's cached answer, which costs the upstreams nothing.
 */
export function isSettled(value: CachedValue): boolean {
  const blocks = value.rows.flatMap((row) => (row.corroboration ? [row.corroboration as Corroboration] : []));
  return blocks.every((b) => b.status !== 'disputed' && !b.sources.some((s) => s.error === 'late'));
}

/** Every item priced and agreed among the answers so far: svc need not wait for the slower sources. */
export function quorumReached(answers: Map<string, SourceAnswer>, spec: CorroborationSpec): boolean {
  const items = itemsOf(answers, spec);
  const rows = items.length ? corroboratedRows(answers, spec) : [];
  return rows.length > 0 && rows.every((row) => (row.corroboration as { status: string }).status === 'agreed');
}
