import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.js';
import { findJsonProblem, findNul } from '../core/json-limits.js';

/** Longest request target accepted; longer ones are a 414 before routing. */
export const MAX_URL_LENGTH = 8192;

/**
 * Input rules that hold for every route, checked before any handler: JSON bodies must be
 * canonicalizable (see core/json-limits.ts), numeric parameters finite, no string holding U+0000, URLs bounded.
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
  // `type: integer`; no route wants one. Nor a U+0000 in any string: Postgres text cannot hold it.
  app.addHook('preHandler', async (request) => {
    const body = request.body !== null && typeof request.body === 'object' ? request.body : undefined;
    const coerced = body && findJsonProblem(body);
    if (coerced) {
      const field = fieldOf(coerced.path);
      throw new ApiError('validation_failed', `body: ${field} ${coerced.message}`, { field, in: 'body', rule: coerced.rule });
    }
    for (const [where, values] of [
      ['body', body ?? request.body],
      ['querystring', request.query],
      ['params', request.params],
    ] as const) {
      const nul = findNul(values);
      if (nul !== undefined) {
        const field = fieldOf(nul);
        throw new ApiError('validation_failed', `${where}: ${field} must not contain U+0000`, { field, in: where, rule: 'no_nul' });
      }
      if (where === 'body' || !values || typeof values !== 'object') continue;
      for (const [field, value] of Object.entries(values)) {
        if (typeof value === 'number' && !Number.isFinite(value)) {
          throw new ApiError('validation_failed', `${where}: ${field} must be a finite number`, { field, in: where, rule: 'finite' });
        }
      }
    }
  });
}

/** JSON Pointer → the dotted field name the house error body uses (`/steps/0/text` → `steps.0.text`). */
const fieldOf = (pointer: string) => pointer.slice(1).replace(/\//g, '.') || '(root)';
