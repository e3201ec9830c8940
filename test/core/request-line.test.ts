import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { loggerOptions, requestIdOf } from '../../src/plugins/server-options.js';
import { requestLineWriter } from '../../src/plugins/request-log.js';

/**
 * Issue 39: the request line is built as one string instead of by pino's `log.info`. For any request (method, URL with
 * or without secret parameters, status, client id, forwarded address) the line is, byte for byte, what pino writes
 * for `{ reqId, req, res, responseTime }` and 'request completed' with the service's logger options.
 */
describe('the request line', () => {
  const lines: string[] = [];
  // The service's logger options with a fixed clock, so that the two lines of one request share their time.
  const options = { ...(loggerOptions('info', { write: (line) => void lines.push(line) }) as object), timestamp: () => ',"time":1' };
  let app: FastifyInstance;

  /** `reply` with its elapsed time read once, so that both lines carry the same one. */
  const settledReply = (reply: FastifyReply, elapsedTime: number) =>
    Object.create(reply, { elapsedTime: { value: elapsedTime } }) as FastifyReply;
  /** `request` whose client is gone: Node no longer knows its address. */
  const goneClient = (request: FastifyRequest) => Object.create(request, { ip: { value: undefined } }) as FastifyRequest;

  beforeAll(async () => {
    app = Fastify({
      logger: options,
      genReqId: requestIdOf,
      trustProxy: true,
      logController: new LogController({ disableRequestLogging: true }),
    });
    const writeLine = requestLineWriter(app.log);
    app.addHook('onResponse', (request, reply, done) => {
      const elapsed = request.headers['x-elapsed'] === 'NaN' ? NaN : reply.elapsedTime;
      const answered = settledReply(reply, elapsed);
      const asked = request.headers['x-gone'] === '1' ? goneClient(request) : request;
      writeLine(asked, answered);
      app.log.info({ reqId: asked.id, req: asked, res: answered, responseTime: answered.elapsedTime }, 'request completed');
      done();
    });
    app.all('/*', (request, reply) => reply.code(Number(request.headers['x-status'])).send('ok'));
    await app.ready();
  });
  afterAll(() => app.close());

  const queryKey = fc.oneof(
    fc.constantFrom('key', 'token', 'SECRET', 'password', 'Partner_Token', 'api_key', 'keys', 'q', 'type'),
    fc.string({ maxLength: 12 }),
  );
  const queryValue = fc.oneof(
    fc.string({ maxLength: 16 }),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('"', '\\', '%22', 'a b'),
  );
  const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  const url = fc.tuple(fc.webPath(), query).map(([path, q]) => `/${path.replace(/^\/+/, '')}${q ? `?${q}` : ''}`);
  const requestId = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/), fc.string({ maxLength: 20 }));

  it('equals what pino writes for the same request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
        url,
        fc.integer({ min: 200, max: 599 }),
        fc.option(requestId, { nil: undefined }),
        fc.option(fc.array(fc.ipV4(), { minLength: 1, maxLength: 3 }), { nil: undefined }),
        fc.constantFrom('', '1'),
        fc.constantFrom('', 'NaN'),
        async (method, path, status, id, forwardedFor, gone, elapsed) => {
          lines.length = 0;
          const headers: Record<string, string> = { 'x-status': String(status), 'x-gone': gone, 'x-elapsed': elapsed };
          if (id !== undefined) headers['x-request-id'] = id;
          if (forwardedFor) headers['x-forwarded-for'] = forwardedFor.join(', ');
          await app.inject({ method, url: path, headers });
          expect(lines).toHaveLength(2);
          expect(lines[0]).toBe(lines[1]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('redacts secret parameters and keeps the id, status and time as values', async () => {
    lines.length = 0;
    await app.inject({ url: '/api/v1/catalog?q=btc&api_key=s3cret', headers: { 'x-status': '201', 'x-request-id': 'line-1' } });
    const line = JSON.parse(lines[0]!);
    expect(line).toEqual({
      level: 30,
      time: 1,
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'line-1',
      req: { method: 'GET', url: '/api/v1/catalog?q=btc&api_key=[redacted]', remoteAddress: '127.0.0.1' },
      res: { statusCode: 201 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
  });

  it('is not written once the level is raised above info, as pino would not write it', async () => {
    lines.length = 0;
    app.log.level = 'warn';
    await app.inject({ url: '/quiet', headers: { 'x-status': '200' } });
    app.log.level = 'info';
    expect(lines).toEqual([]);
  });
});
