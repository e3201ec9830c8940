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

/**
 * The `RateLimit-Policy` and `RateLimit` fields of an answer (draft-ietf-httpapi-ratelimit-headers-12), when the
 * service sent them: `RateLimit-Policy: "anonymous";q=120;w=60` and `RateLimit: "anonymous";r=119;t=1`.
 */
export interface RateLimit {
  /** The policy's name: the caller's tier (anonymous, standard, pro, pass). */
  policy: string;
  /** q: requests per window (absent when the policy field was not sent). */
  limit?: number;
  /** w: the window in seconds. */
  windowS?: number;
  /** r: requests left. */
  remaining: number;
  /** t: seconds until the quota is whole again (on a 429: until the next request is admitted). */
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

/** The first item of a Structured Field List of `"name";key=integer` items. */
export function firstLimitItem(field: string | null): { name: string; params: Record<string, number> } | undefined {
  const match = /^\s*"([^"\\]*)"((?:;[a-z*][a-z0-9_.*-]*=[^;,]*)*)/.exec(field ?? '');
  if (!match) return undefined;
  const params: Record<string, number> = {};
  for (const [, key, value] of match[2]!.matchAll(/;([a-z*][a-z0-9_.*-]*)=([^;,]*)/g))
    if (/^\d+$/.test(value!.trim())) params[key!] = Number(value);
  return { name: match[1]!, params };
}

function rateLimitOf(headers: Headers): RateLimit | undefined {
  const item = firstLimitItem(headers.get('ratelimit'));
  if (item?.params.r === undefined || item.params.t === undefined) return undefined;
  const policy = firstLimitItem(headers.get('ratelimit-policy'));
  const same = policy?.name === item.name ? policy.params : {};
  return {
    policy: item.name,
    ...(same.q === undefined ? {} : { limit: same.q }),
    ...(same.w === undefined ? {} : { windowS: same.w }),
    remaining: item.params.r,
    resetS: item.params.t,
  };
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
