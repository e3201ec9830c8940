import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../core/errors.js';
import { PaymentRequiredError } from '../core/payment-required.js';
import { isDatabaseOutage } from '../store/db.js';
import { lingerIfBodyUnread } from './lingering-close.js';

/** What a client is told to wait before retrying while the database is away. */
const DATABASE_RETRY_S = 5;

/**
 * The wait a 429 or 503 names when its thrower did not: a cap on concurrent streams frees as streams close, an open
 * upstream circuit half-opens after 15 s, a missing model stays missing until the operator configures one, and the
 * model budget renews at 00:00 UTC (at most a day away). Every 429 and 503 carries `Retry-After` (docs/agents.md).
 */
const DEFAULT_RETRY_S: Partial<Record<ErrorCode, number>> = {
  rate_limited: 10,
  upstream_unavailable: 15,
  model_unavailable: 3600,
  model_budget_exhausted: 3600,
};
const FALLBACK_RETRY_S = 30;

/**
 * A 429 or 503 whose details say which limit it met (`policy`, the error code when the thrower named none), its
 * window (`window_s`, null when it has none) and when to come back (`retry_after_s`, `reset_s`), with what the
 * thrower already said kept as it was.
 */
function withRetryDetails(error: ApiError): ApiError {
  if (error.status !== 429 && error.status !== 503) return error;
  const details = error.details ?? {};
  const retryAfterS = typeof details.retry_after_s === 'number' ? details.retry_after_s : (DEFAULT_RETRY_S[error.code] ?? FALLBACK_RETRY_S);
  const complete = { policy: error.code, window_s: null, retry_after_s: retryAfterS, reset_s: retryAfterS, ...details };
  return new ApiError(error.code, error.message, complete);
}

interface ValidationItem {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `querystring` + `/limit` → `limit`; a missing property names itself. */
function fieldOf(item: ValidationItem): string {
  const path = item.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = item.params.missingProperty;
  return typeof missing === 'string' ? (path ? `${path}.${missing}` : missing) : path || '(root)';
}

function fromValidation(error: FastifyError): ApiError {
  const items = (error.validation ?? []) as ValidationItem[];
  const first = items[0];
  if (!first) return new ApiError('validation_failed', error.message);
  const field = fieldOf(first);
  const where = error.validationContext ?? 'request';
  const message = first.keyword === 'required' ? `${where}: ${field} is required` : `${where}: ${field} ${first.message ?? 'is invalid'}`;
  return new ApiError('validation_failed', message, {
    field,
    in: where,
    rule: first.keyword,
    ...first.params,
    ...(items.length > 1 ? { more: items.slice(1).map((i) => ({ field: fieldOf(i), rule: i.keyword, message: i.message })) } : {}),
  });
}

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
  FST_ERR_BAD_URL: 'bad_request',
};

/** Errors the router raises before any hook (a malformed or overlong path): same house body. */
export const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void =>
  void sendError(reply, request, toApiError(error));

/** Any thrown thing → ApiError; unknown errors become a 500 without internals. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as FastifyError;
  if (e?.validation) return fromValidation(e);
  const known = e?.code ? FRAMEWORK_CODES[e.code] : undefined;
  if (known) return new ApiError(known, known === 'invalid_json' ? 'the request body is not valid JSON' : e.message);
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return new ApiError('bad_request', e.message);
  if (isDatabaseOutage(error))
    return new ApiError('store_unavailable', 'the database is unavailable; retry shortly', { retry_after_s: DATABASE_RETRY_S });
  return new ApiError('internal_error', 'an internal error occurred; it has been logged');
}

export function sendError(reply: FastifyReply, request: FastifyRequest, thrown: ApiError): FastifyReply {
  lingerIfBodyUnread(request, reply);
  if (thrown instanceof PaymentRequiredError) {
    return reply
      .code(402)
      .header('www-authenticate', 'x402')
      .header('x-payment-required', thrown.headerChallenge)
      .headers(thrown.headers)
      .type('application/json; charset=utf-8')
      .send({ ...thrown.challenge, request_id: request.id });
  }
  const error = withRetryDetails(thrown);
  // RFC 9110 §11.6.1: a 401 names its scheme; every svc credential (agent key, session, portfolio, pass, admin) is a bearer token.
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="svc"');
  // Every 429 and 503, and any other refusal that knows when to come back (an abuse block), says so.
  if (typeof error.details?.retry_after_s === 'number') reply.header('retry-after', String(error.details.retry_after_s));
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({ error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}), request_id: request.id });
}

/** One formatter for every error, validation errors and unknown routes included. */
declare module 'fastify' {
  interface FastifyRequest {
    /** The error this request was answered with, for the abuse detector. */
    apiError?: ApiError;
  }
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function registerErrorHandler(app: FastifyInstance): void {
  app.decorateRequest('apiError', undefined);
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    request.apiError = apiError;
    // An unavailable dependency is not a fault of svc's: one line without a stack, not an error report per request.
    if (apiError.code === 'store_unavailable')
      request.log.warn({ reason: (error as Error).message, code: (error as { code?: unknown }).code }, apiError.message);
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, request, apiError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = HTTP_METHODS.filter((method) => app.hasRoute({ method, url: path }));
    if (allowed.length === 0) return sendError(reply, request, new ApiError('not_found', `no route ${request.method} ${path}`));
    reply.header('allow', allowed.join(', '));
    return sendError(
      reply,
      request,
      new ApiError('method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}`, { allow: allowed }),
    );
  });
}
