/**
 * The `RateLimit-Policy` and `RateLimit` response fields of draft-ietf-httpapi-ratelimit-headers-12 (the revision
 * current on the IETF datatracker; the fields' syntax is unchanged since -07): Structured Field Lists whose items are
 * the policy name as a String with parameters. svc has one request policy per caller, named after its tier:
 *
 *   RateLimit-Policy: "anonymous";q=120;w=60      q requests per w seconds (a token bucket holding a minute's worth)
 *   RateLimit: "anonymous";r=119;t=1              r requests left; t seconds until the quota is whole again, or, on a
 *                                                 429, until the next request is admitted (then equal to Retry-After,
 *                                                 which the draft says must not come before t)
 */

/** Every policy's window: the bucket refills its whole quota over one minute. */
export const POLICY_WINDOW_S = 60;

/** The constant `RateLimit-Policy` value of one tier, computed once per tier (it goes out on every answer). */
export const policyField = (name: string, quota: number, windowS = POLICY_WINDOW_S): string => `"${name}";q=${quota};w=${windowS}`;

/** The `RateLimit` value of one answer. */
export const serviceLimitField = (name: string, remaining: number, resetS: number): string => `"${name}";r=${remaining};t=${resetS}`;

/**
 * What the house body of a refusal says about the limit it met (in `details`, beside any older fields): which
 * limit (`policy`, the name in the RateLimit fields), its size (`limit`) and window (`window_s`, null for a cap on
 * concurrent streams or an outage), when to come back (`retry_after_s`, also
 * the `Retry-After` header) and when it is whole again (`reset_s`). Seconds from now, as in the fields themselves.
 */
export function limitDetails(policy: string, limit: number, windowS: number | null, retryAfterS: number, resetS = retryAfterS) {
  return { policy, limit, window_s: windowS, retry_after_s: retryAfterS, reset_s: resetS };
}

/** The numbers an agent framework backs off on, as read from the two fields (and `Retry-After`). */
export interface RateLimitNumbers {
  policy: string;
  /** q: the quota of the window. */
  quota?: number;
  /** w: the window in seconds. */
  window_s?: number;
  /** r: requests left. */
  remaining: number;
  /** t: seconds until more quota is available. */
  reset_s?: number;
  retry_after_s?: number;
}

/** The first item of a Structured Field List of `"name";k=v` items: its name and integer parameters. */
function firstItem(field: string | undefined): { name: string; params: Record<string, number> } | undefined {
  const match = /^\s*"([^"\\]*)"((?:;[a-z*][a-z0-9_.*-]*=[^;,]*)*)/.exec(field ?? '');
  if (!match) return undefined;
  const params: Record<string, number> = {};
  for (const [, key, value] of match[2]!.matchAll(/;([a-z*][a-z0-9_.*-]*)=([^;,]*)/g))
    if (/^\d+$/.test(value!.trim())) params[key!] = Number(value);
  return { name: match[1]!, params };
}

/** Reads `RateLimit`, `RateLimit-Policy` and `Retry-After` (lower-case header names); undefined without a `RateLimit` field. */
export function readRateLimit(headers: Record<string, string | undefined>): RateLimitNumbers | undefined {
  const limit = firstItem(headers.ratelimit);
  if (!limit || limit.params.r === undefined) return undefined;
  const policy = firstItem(headers['ratelimit-policy']);
  const same = policy?.name === limit.name ? policy.params : {};
  const retryAfter = headers['retry-after'];
  return {
    policy: limit.name,
    ...(same.q === undefined ? {} : { quota: same.q }),
    ...(same.w === undefined ? {} : { window_s: same.w }),
    remaining: limit.params.r,
    ...(limit.params.t === undefined ? {} : { reset_s: limit.params.t }),
    ...(retryAfter && /^\d+$/.test(retryAfter.trim()) ? { retry_after_s: Number(retryAfter) } : {}),
  };
}
