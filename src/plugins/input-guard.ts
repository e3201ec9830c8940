import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.js';
import { findJsonProblem } from '../core/json-limits.js';

/** Longest request target accepted; longer ones are a 414 before routing. */
export const MAX_URL_LENGTH = 8192;

/**
 * Input rules that hold for every route, checked before any handler: JSON bodies must be
 * canonicalizable (see core/json-limits.ts), numeric parameters finite, URLs bounded.
 */
export function registerInputGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    void parseJson(request, body as string, (error, value) => {
      if (error) return done(error);
      const problem = findJsonProblem(value);
      if (!problem) return done(null, value);
      const where = problem.path || '(root)';
      done(new ApiError('invalid_json', `body ${where}: ${problem.message}`, { field: where, in: 'body', rule: problem.rule }), undefined);
    });
  });

  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.length > MAX_URL_LENGTH)
      return done(new ApiError('uri_too_long', `the request URL is longer than ${MAX_URL_LENGTH} characters`, { limit: MAX_URL_LENGTH }));
    done();
  });

  // Ajv coerces `1e309` and `Infinity` (in a query, or as a string in a body) to a number that passes
  // `type: integer`; no route wants one.
  app.addHook('preHandler', async (request) => {
    const coerced = request.body !== null && typeof request.body === 'object' ? findJsonProblem(request.body) : undefined;
    if (coerced) {
      const field = coerced.path.slice(1).replace(/\//g, '.') || '(root)';
      throw new ApiError('validation_failed', `body: ${field} ${coerced.message}`, { field, in: 'body', rule: coerced.rule });
    }
    for (const [where, values] of [
      ['querystring', request.query],
      ['params', request.params],
    ] as const) {
      if (!values || typeof values !== 'object') continue;
      for (const [field, value] of Object.entries(values)) {
        if (typeof value === 'number' && !Number.isFinite(value)) {
          throw new ApiError('validation_failed', `${where}: ${field} must be a finite number`, { field, in: where, rule: 'finite' });
        }
      }
    }
  });
}
