import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { LogController } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { loggerOptions } from '../../src/plugins/server-options.js';
import { deferredChildLogger } from '../../src/plugins/deferred-logger.js';

/** Issue 33, finding 8: two log lines per request (incoming + completed), and every balancer probe logged. */
describe.each([
  ['by default', {}, false],
  ['with SVC_LOG_HEALTH_PROBES=on', { SVC_LOG_HEALTH_PROBES: 'on' }, true],
] as const)('request log lines %s', (_name, env, probesLogged) => {
  let t: TestApp;
  const lines: Record<string, any>[] = [];
  const logStream = new Writable({
    write: (chunk, _enc, done) => {
      for (const line of chunk.toString().trim().split('\n')) lines.push(JSON.parse(line));
      done();
    },
  });
  beforeAll(async () => {
    t = await startTestApp({ logStream, env });
  });
  afterAll(() => t.close());
  const linesOf = (requestId: string) => lines.filter((line) => line.reqId === requestId);

  it('one line per request, with method, URL, address, status and time', async () => {
    await t.app.inject({ url: '/api/v1/catalog?key=s3cret', headers: { 'x-request-id': 'one-line' } });
    expect(linesOf('one-line')).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: { method: 'GET', url: '/api/v1/catalog?key=[redacted]', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it('redacts every form of secret parameter, and leaves a URL without one as it was', async () => {
    const urls = {
      '/api/v1/catalog?q=monkey&Partner_Token=abc&SECRET=x&password=':
        '/api/v1/catalog?q=monkey&Partner_Token=[redacted]&SECRET=[redacted]&password=[redacted]',
      '/api/v1/catalog?q=key,token&keys=1': '/api/v1/catalog?q=key,token&keys=1',
    };
    for (const [i, [url, logged]] of Object.entries(urls).entries()) {
      await t.app.inject({ url, headers: { 'x-request-id': `redact-${i}` } });
      expect(linesOf(`redact-${i}`)[0]?.req.url).toBe(logged);
    }
  });

  it(`health probes ${probesLogged ? 'are' : 'are not'} logged`, async () => {
    const probes = ['/healthz', '/readyz', '/metrics'];
    for (const url of probes) await t.app.inject({ url, headers: { 'x-request-id': `probe${url.slice(1)}` } });
    for (const url of probes) expect(linesOf(`probe${url.slice(1)}`).length, url).toBe(probesLogged ? 1 : 0);
  });
});

/** Issue 39: request.log is made on first use; what it writes still carries the request id, as Fastify's child did. */
describe('request.log, made on first use', () => {
  it('writes with the request id bound, its children too, and says the root level', async () => {
    const lines: Record<string, any>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const app = Fastify({
      logger: loggerOptions('info', stream),
      childLoggerFactory: deferredChildLogger,
      genReqId: () => 'deferred-1',
      logController: new LogController({ disableRequestLogging: true }),
    });
    app.get('/logs', (request) => {
      request.log.warn({ detail: 1 }, 'first use');
      request.log.child({ step: 'two' }).info('from a child');
      request.log.debug('below the level');
      return { level: request.log.level };
    });
    app.get('/quiet', () => ({ ok: true }));
    const answer = await app.inject({ url: '/logs' });
    await app.inject({ url: '/quiet' });
    await app.close();
    expect(answer.json()).toEqual({ level: 'info' });
    expect(lines.filter((line) => line.reqId === 'deferred-1')).toEqual([
      expect.objectContaining({ level: 40, msg: 'first use', detail: 1 }),
      expect.objectContaining({ level: 30, msg: 'from a child', step: 'two' }),
    ]);
  });
});
