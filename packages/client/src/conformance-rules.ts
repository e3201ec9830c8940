import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { firstLimitItem } from './meta.js';

/**
 * The rules the conformance check (conformance.ts) holds every answer to, from issue 35. Each rule answers a miss
 * (a reason) or undefined. Rules marked `needs: 'items 1-2'` come from the items 1 and 2 (freshness on every
 * row, results that fit a context window).
 */

/** MCP tool results stay under this many o200k tokens (issue 35, item 2). */
export const MCP_TOKEN_BUDGET = 10_000;
/** The default tools/list stays under this many bytes (issue 35, item 2). */
export const TOOL_LIST_BUDGET_BYTES = 16 * 1024;
/** Paths outside the rate limiter: no RateLimit fields expected. */
const UNMETERED = new Set(['/healthz', '/readyz', '/metrics']);

/** o200k_base tokens of a value as a client receives it (its JSON text). */
export const tokensOf = (value: unknown): number => countTokens(typeof value === 'string' ? value : JSON.stringify(value));

/** One HTTP exchange as the check saw it. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

export type Miss = string | undefined;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown) => Number.isInteger(v);

/** RateLimit-Policy and RateLimit in the draft's form (`"name";q=..;w=..` and `"name";r=..;t=..`) on every metered answer. */
export function rateLimitFields(x: Exchange): Miss {
  if (UNMETERED.has(x.path)) return undefined;
  const policy = firstLimitItem(x.headers.get('ratelimit-policy'));
  const limit = firstLimitItem(x.headers.get('ratelimit'));
  if (!policy || policy.params.q === undefined || policy.params.w === undefined)
    return `RateLimit-Policy: ${x.headers.get('ratelimit-policy')}`;
  if (!limit || limit.params.r === undefined || limit.params.t === undefined) return `RateLimit: ${x.headers.get('ratelimit')}`;
  return limit.name === policy.name ? undefined : `RateLimit names "${limit.name}", RateLimit-Policy "${policy.name}"`;
}

/** Every 4xx/5xx: the house body `{error, message, request_id}` and the request id header. */
export function errorBody(x: Exchange): Miss {
  if (x.status < 400) return undefined;
  if (!x.headers.get('x-request-id')) return 'no X-Request-Id';
  const body = x.body;
  if (!isRecord(body) || typeof body.error !== 'string' || typeof body.message !== 'string' || typeof body.request_id !== 'string')
    return `body is not {error, message, request_id}: ${JSON.stringify(body).slice(0, 120)}`;
  return undefined;
}

/** Every 429 and 503: Retry-After in seconds, and details naming the limit, its window and its reset. */
export function retryAfter(x: Exchange): Miss {
  if (x.status !== 429 && x.status !== 503) return undefined;
  const header = x.headers.get('retry-after');
  if (!header || !/^\d+$/.test(header)) return `Retry-After: ${header}`;
  const details = isRecord(x.body) && isRecord(x.body.details) ? x.body.details : {};
  const missing = ['policy', 'window_s', 'retry_after_s', 'reset_s'].filter((k) => !(k in details));
  return missing.length ? `details lack ${missing.join(', ')}` : undefined;
}

/** Every 402: the spec's fields exact, plus the price, what it buys and the cheaper alternatives. */
export function paymentRequired(x: Exchange): Miss {
  if (x.status !== 402) return undefined;
  const body = isRecord(x.body) ? x.body : {};
  const invoice = isRecord(body.invoice) ? body.invoice : {};
  if (body.error !== 'payment_required' || body.protocol !== 'x402') return 'error/protocol are not payment_required/x402';
  const missing = ['amount', 'asset', 'chain', 'recipient', 'memo', 'expires'].filter((k) => typeof invoice[k] !== 'string');
  if (missing.length) return `invoice lacks ${missing.join(', ')}`;
  if (!x.headers.get('www-authenticate')?.includes('x402')) return 'no WWW-Authenticate: x402';
  if (!isRecord(body.price) || typeof body.buys !== 'string') return 'no price or buys';
  return Array.isArray(body.alternatives) && body.alternatives.length ? undefined : 'no alternatives';
}

/** A row's freshness (issue 35, item 1): as_of in Unix seconds, as_of_kind, age_s, stale, next_update_at when given. */
export function rowFreshness(row: unknown): Miss {
  if (!isRecord(row)) return 'not an object';
  if (!isInt(row.as_of) || (row.as_of as number) > 1e10) return `as_of is not Unix seconds: ${String(row.as_of)}`;
  if (row.as_of_kind !== 'source' && row.as_of_kind !== 'fetched') return `as_of_kind: ${String(row.as_of_kind)}`;
  if (typeof row.age_s !== 'number' || row.age_s < 0) return `age_s: ${String(row.age_s)}`;
  if (typeof row.stale !== 'boolean') return `stale: ${String(row.stale)}`;
  if (
    row.next_update_at !== undefined &&
    row.next_update_at !== null &&
    (!isInt(row.next_update_at) || (row.next_update_at as number) > 1e10)
  )
    return `next_update_at is not Unix seconds: ${JSON.stringify(row.next_update_at)}`;
  return undefined;
}

/** The rows of an answer: a preview's row, a bundle's and agent-context's `data.results`, a snapshot's items' rows, a tool result's. */
export function rowsOf(body: unknown): unknown[] {
  if (!isRecord(body)) return [];
  if (isRecord(body.preview)) return [body.preview];
  const listed = (items: unknown, key: string) =>
    Array.isArray(items) ? items.flatMap((i) => (isRecord(i) && Array.isArray(i[key]) ? (i[key] as unknown[]) : [])) : [];
  const dataOf = (results: unknown) => (Array.isArray(results) ? results.map((r) => (isRecord(r) ? r.data : undefined)) : []);
  if (Array.isArray(body.results)) return listed(dataOf(body.results), 'results');
  if (isRecord(body.context)) return listed([...dataOf(body.context.primary), ...dataOf(body.context.supporting)], 'results');
  if (isRecord(body.data) && Array.isArray(body.data.items)) return listed(body.data.items, 'rows');
  return Array.isArray(body.rows) ? (body.rows as unknown[]) : [];
}

/** An MCP tool result under the token budget (issue 35, item 2), with a cursor when it was cut. */
export function resultBudget(result: unknown): Miss {
  const tokens = tokensOf(result);
  return tokens > MCP_TOKEN_BUDGET ? `${tokens} tokens > ${MCP_TOKEN_BUDGET}` : undefined;
}

/** A tool result's `_meta` carries the rate-limit numbers (issue 35, item 3). */
export function resultLimitsMeta(result: unknown): Miss {
  const meta = isRecord(result) && isRecord(result._meta) ? result._meta : {};
  const limits = meta['svc/ratelimit'];
  return isRecord(limits) && (typeof limits.remaining === 'number' || typeof limits.retry_after_s === 'number')
    ? undefined
    : 'no _meta["svc/ratelimit"]';
}
