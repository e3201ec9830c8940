/**
 * Every error the API can answer with, listed once: code → HTTP status and a default message.
 * The error handler formats all of them as `{error, message, details?, request_id}`.
 */
export const ERROR_CODES = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  invalid_q: 400,
  unknown_type: 400,
  invalid_cursor: 400,
  entity_unsupported: 400,
  limit_exceeded: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  blocked: 403,
  not_found: 404,
  unknown_symbol: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  no_history: 404,
  conflict: 409,
  already_resolved: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  session_ended: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  goal_unmatched: 422,
  url_unreadable: 422,
  address_unknown: 422,
  invalid_image: 400,
  image_too_large: 413,
  image_quota_exceeded: 413,
  image_budget_exhausted: 429,
  unsupported_image_type: 415,
  image_dimensions_too_large: 422,
  image_too_many_pixels: 422,
  model_unavailable: 503,
  model_budget_exhausted: 503,
  rate_limited: 429,
  header_too_large: 431,
  internal_error: 500,
  upstream_unavailable: 503,
  service_unavailable: 503,
  store_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_CODES[code];
  }
}

/** A 400 for a query string that does not have its type's shape; says what was expected, with an example. */
export function invalidQ(expected: string, example: string, reason?: string): ApiError {
  const message = reason ? `${reason}; expected ${expected}` : `q must be ${expected}`;
  return new ApiError('invalid_q', message, { field: 'q', expected, example });
}
