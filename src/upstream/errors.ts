/**
 * Why an upstream call did not produce usable data, with what it means to the caller: the `error` values of an `ok:false`
 * result (never an HTTP error). docs/api.md's table and the OpenAPI description are generated from this list.
 */
export const FAILURE_REASONS = {
  upstream_timeout: "every upstream tried was still silent at the type's deadline",
  upstream_error: 'the upstream answered with an error status',
  upstream_rate_limited: 'the upstream refused for its own rate limit; back off before asking again',
  upstream_bad_response: "the upstream's answer was malformed, of the wrong shape, or over the size limit",
  upstream_unavailable: 'the upstream could not be reached, or its circuit breaker is open after repeated failures',
  upstream_key_missing: 'the upstream needs a key this server does not have (`UPSTREAM_<HOST>_KEY`)',
  region_blocked: "the upstream refuses this server's country or region (HTTP 451, or a 403 it documents as regional)",
  no_data: 'the upstream has no rows for this query',
  blocked_address: 'scrape: the URL resolves to a private or otherwise refused address',
  too_many_redirects: 'scrape: the URL redirects more times than allowed',
  unsupported_content_type: 'scrape: the page is not HTML or text',
  no_upstream: 'no upstream, formula or cited curated file can answer this query: nothing is served rather than invented',
} as const;

export type FailureReason = keyof typeof FAILURE_REASONS;

export class UpstreamError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly info: { host?: string; status?: number; retryAfterS?: number } = {},
  ) {
    super(message);
  }
}

export const noData = (message = 'the upstream returned no rows for this query') => new UpstreamError('no_data', message);

export const noUpstream = (message: string) => new UpstreamError('no_upstream', message);

/**
 * Bodies of 403s that are regional blocks: AWS CloudFront's geo-restriction page (Bybit and others sit behind it) and
 * Binance's "restricted location" eligibility message. Any other 403 stays an ordinary refusal.
 */
const REGIONAL_403 = /configured to block access from your country|restricted location/i;

/** HTTP 451 (Unavailable For Legal Reasons), or a 403 whose body says the caller's region is refused. */
export const isRegionBlocked = (status: number, body: string): boolean =>
  status === 451 || (status === 403 && REGIONAL_403.test(body.slice(0, 4096)));

/** HTTP statuses that refuse the request itself (an unknown symbol, a malformed parameter), not svc's access or the host's health. */
const QUERY_REFUSALS = new Set([400, 404, 410, 422]);

/** The upstream answered that this query names nothing it has (no rows, or a 4xx about the request): the caller's mistake. */
export const refusesQuery = (e: UpstreamError): boolean =>
  e.reason === 'no_data' || (e.reason === 'upstream_error' && e.info.status !== undefined && QUERY_REFUSALS.has(e.info.status));
