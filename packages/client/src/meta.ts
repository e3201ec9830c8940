/** What the service said about an answer besides its body: request id, rate limit, Retry-After. */

/** A request as the service hashes it into a receipt's `request_hash`. */
export interface RequestDescription {
  /** Upper case. */
  method: string;
  /** Without the query string, path parameters percent-encoded as sent. */
  path: string;
  /** The query parameters as sent (strings). */
  query: Record<string, string>;
  /** The JSON body as the service parses it, or null. */
  body: unknown;
}

/** The `RateLimit-*` headers of an answer, when the service sent them. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
}

export interface ResponseMeta {
  status: number;
  /** `x-request-id`: quote it when reporting a problem. */
  requestId?: string;
  rateLimit?: RateLimit;
  /** `Retry-After` in seconds, when present. */
  retryAfterS?: number;
  /** The request that was sent (absent for form uploads): `verifyReceipt` checks `request_hash` against it. */
  request?: RequestDescription;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

function rateLimitOf(headers: Headers): RateLimit | undefined {
  const [limit, remaining, resetS] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) =>
    Number(headers.get(name) ?? Number.NaN),
  );
  if (![limit, remaining, resetS].every((n) => Number.isFinite(n))) return undefined;
  return { limit: limit!, remaining: remaining!, resetS: resetS! };
}

export function readMeta(status: number, headers: Headers, request: RequestDescription | undefined): ResponseMeta {
  const requestId = headers.get('x-request-id');
  const rateLimit = rateLimitOf(headers);
  const retryAfterS = retryAfterSeconds(headers.get('retry-after'));
  return {
    status,
    ...(requestId ? { requestId } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    ...(retryAfterS === undefined ? {} : { retryAfterS }),
    ...(request ? { request } : {}),
  };
}
