import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

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

  it(`health probes ${probesLogged ? 'are' : 'are not'} logged`, async () => {
    const probes = ['/healthz', '/readyz', '/metrics'];
    for (const url of probes) await t.app.inject({ url, headers: { 'x-request-id': `probe${url.slice(1)}` } });
    for (const url of probes) expect(linesOf(`probe${url.slice(1)}`).length, url).toBe(probesLogged ? 1 : 0);
  });
});
