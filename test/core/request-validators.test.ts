import { describe, expect, it } from 'vitest';
import { ajvValidators, lazily, type ValidatorFactory } from '../../src/plugins/lazy-validators.js';
import { appsClosedAfterEach } from '../helpers/app.js';

/** Ajv's validator factory, noting each validator it compiles as `<method> <url> <part>`. */
const recording = (compiled: string[]): ValidatorFactory => {
  const factory = ajvValidators();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      compiled.push(`${route.method} ${route.url} ${route.httpPart}`);
      return compile(route);
    };
  };
};

const startApp = appsClosedAfterEach();
const start = (buildValidator: ValidatorFactory) => startApp({ buildValidator });

const preview = (query: string) => `/api/data/preview?${query}`;
const startSession = (body: unknown) => ({
  method: 'POST' as const,
  url: '/api/agent-session/start',
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(body),
});

describe('Request validators (issue 38: compiled on first use)', () => {
  it('are compiled on a route part’s first request, once, and answer as the ones compiled at start', async () => {
    const compiled: string[] = [];
    const lazy = await start(lazily(recording(compiled)));
    const eager = await start(ajvValidators());
    expect(compiled).toEqual([]);

    const requests = [
      preview('type=crypto-price&q=bitcoin&max_age=oops'), // querystring refused: the house 400 names the field
      preview('type=crypto-price&q=bitcoin&max_age=60'), // coerced to a number and accepted
      startSession({ label: 7 }), // body refused
      startSession({ label: 'ok' }),
    ];
    for (const request of requests) {
      const [fromLazy, fromEager] = await Promise.all([lazy.app.inject(request), eager.app.inject(request)]);
      expect(fromLazy.statusCode, JSON.stringify(request)).toBe(fromEager.statusCode);
      if (fromLazy.statusCode === 400) expect({ ...fromLazy.json(), request_id: 0 }).toEqual({ ...fromEager.json(), request_id: 0 });
    }
    expect((await lazy.app.inject(requests[0]!)).json()).toMatchObject({
      error: 'validation_failed',
      message: expect.stringContaining('max_age'),
    });
    expect(compiled.sort()).toEqual(['GET /api/data/preview querystring', 'POST /api/agent-session/start body']);
  });

  it('compile for every route’s request schemas (so none fails on its first request)', async () => {
    const compiled: string[] = [];
    await start(recording(compiled));
    expect(compiled.length).toBeGreaterThan(50);
    expect(compiled).toEqual(expect.arrayContaining(['GET /api/data/preview querystring', 'POST /api/agent-session/start body']));
  });

  it('refuse a header schema with an upper-case key, which Fastify lower-cases only for its own compiler', () => {
    const compileRoute = lazily(ajvValidators())({}, { customOptions: {} });
    const schema = { type: 'object', properties: { 'X-Api-Key': { type: 'string' } } };
    expect(() => compileRoute({ schema, method: 'GET', url: '/x', httpPart: 'headers' })).toThrow(
      'GET /x: header schema key "X-Api-Key" must be lower case',
    );
  });
});
