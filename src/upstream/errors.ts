/** Why an upstream call did not produce usable data; these are the `error` values of an `ok:false` result. */
export const FAILURE_REASONS = [
  'upstream_timeout',
  'upstream_error',
  'upstream_rate_limited',
  'upstream_bad_response',
  'upstream_unavailable',
  'upstream_key_missing',
  'no_data',
  'blocked_address',
  'too_many_redirects',
  'unsupported_content_type',
  /** No upstream, formula or cited curated file can answer this query: nothing is served rather than invented. */
  'no_upstream',
] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

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
