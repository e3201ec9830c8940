/**
 * Every error the API can answer with, listed once: code → HTTP status and what it means to the caller. The error
 * handler formats all of them as `{error, message, details?, request_id}`; docs/api.md's error table and the OpenAPI
 * description are generated from this list (`npm run docs:errors`).
 */
export const ERROR_CODES = {
  bad_request: {
    status: 400,
    meaning: 'the request contradicts itself (two payment headers, q and entity together); details.field names the part',
  },
  validation_failed: {
    status: 400,
    meaning: 'a parameter or body field breaks its schema; details.field and details.rule say which and why',
  },
  invalid_json: { status: 400, meaning: 'the body is not JSON, or not canonical JSON where a signature covers it' },
  invalid_q: { status: 400, meaning: "q does not have its type's shape; details.expected and details.example show one that does" },
  unknown_type: { status: 400, meaning: 'no data type has this name; /api/v1/catalog lists them' },
  invalid_cursor: { status: 400, meaning: 'the cursor was not issued by this server, or was altered' },
  entity_unsupported: { status: 400, meaning: 'the entity exists but this data type cannot be asked about it' },
  limit_exceeded: { status: 400, meaning: 'more items than the operation allows; details.limit is the most it takes' },
  unauthorized: { status: 401, meaning: 'a credential is required here and none, or an invalid one, was sent' },
  payment_required: {
    status: 402,
    meaning: 'a paid operation without a valid payment, pass or session; the body and headers carry the challenge',
  },
  forbidden: { status: 403, meaning: "the credential is valid but does not allow this (a wrong admin token, another user's portfolio)" },
  blocked: { status: 403, meaning: 'this address sent too many invalid requests and is blocked for a while; Retry-After says how long' },
  not_found: { status: 404, meaning: 'no such route, record or resource' },
  unknown_symbol: { status: 404, meaning: 'q has the right shape but names nothing the upstreams know' },
  method_not_allowed: { status: 405, meaning: 'the path exists but not with this HTTP method' },
  request_timeout: { status: 408, meaning: 'the request was not received in time' },
  no_history: { status: 404, meaning: 'nothing was recorded at or before the time asked for (as_of, ago)' },
  conflict: {
    status: 409,
    meaning: 'the request contradicts the current state (an account already linked, a concurrent change); details.field names it',
  },
  already_resolved: { status: 409, meaning: 'the claim already has an outcome; outcomes are written once' },
  idempotency_in_progress: { status: 409, meaning: 'a request with this Idempotency-Key is still being handled; retry after it ends' },
  idempotency_key_reused: { status: 422, meaning: 'this Idempotency-Key was used before with a different request' },
  session_ended: { status: 410, meaning: 'the agent session has ended and is read-only' },
  payload_too_large: { status: 413, meaning: "the body is over the route's size limit" },
  uri_too_long: { status: 414, meaning: "the URL is over the server's length limit" },
  unsupported_media_type: { status: 415, meaning: "the body's Content-Type is not one this route reads" },
  goal_unmatched: { status: 422, meaning: 'no rule matches the goal; details.goal_categories lists the goals that do' },
  url_unreadable: { status: 422, meaning: 'the URL given in the body could not be fetched or parsed' },
  address_unknown: { status: 422, meaning: 'no data source knows this address, so no estimate is made' },
  invalid_image: { status: 400, meaning: 'the upload is not a readable image' },
  image_too_large: { status: 413, meaning: 'the image is over the size limit' },
  image_quota_exceeded: { status: 413, meaning: 'the session already holds as many image bytes as it may' },
  image_budget_exhausted: { status: 429, meaning: "the server's image budget for this period is spent; Retry-After says when it renews" },
  unsupported_image_type: { status: 415, meaning: 'the image format is not one of those accepted' },
  image_dimensions_too_large: { status: 422, meaning: 'the image is wider or taller than allowed' },
  image_too_many_pixels: { status: 422, meaning: 'the image has more pixels than allowed' },
  model_unavailable: { status: 503, meaning: 'no language model is configured for this role (SVC_MODELS)' },
  model_budget_exhausted: { status: 503, meaning: "the language models' daily budget is spent; it renews at 00:00 UTC" },
  rate_limited: { status: 429, meaning: "the tier's request quota is used up; Retry-After and RateLimit say when it refills" },
  header_too_large: { status: 431, meaning: "the request headers are over the server's limit" },
  internal_error: { status: 500, meaning: 'a fault in svc itself; request_id finds it in the server log' },
  upstream_unavailable: {
    status: 503,
    meaning: 'a whole-answer operation needs an upstream that failed; details.reason is the failure reason',
  },
  service_unavailable: {
    status: 503,
    meaning: 'a dependency (facilitator, checkout provider, secret key) is missing or not answering; retry later',
  },
  store_unavailable: {
    status: 503,
    meaning: 'the database or the shared cache is not answering; details.retry_after_s says when to retry',
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
  }
}

/** A 400 for a query string that does not have its type's shape; says what was expected, with an example. */
export function invalidQ(expected: string, example: string, reason?: string): ApiError {
  const message = reason ? `${reason}; expected ${expected}` : `q must be ${expected}`;
  return new ApiError('invalid_q', message, { field: 'q', expected, example });
}
