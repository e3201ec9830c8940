import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

const HOUSE_BODY = { error: expect.any(String), message: expect.any(String), request_id: expect.any(String) };

/** Sends raw bytes and resolves with everything the server wrote until it closed the socket. */
function rawExchange(port: number, write: (socket: Socket) => void): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => write(socket));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    setTimeout(() => reject(new Error('server kept the socket open')), 15_000).unref();
  });
}
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

/** Audit findings 5 and 6: one error shape for every framework and parser error; sockets cannot be held. */
describe('HTTP edges', () => {
  let t: TestApp;
  let port: number;
  const logLines: string[] = [];
  const logStream = new Writable({ write: (chunk, _enc, done) => (logLines.push(...chunk.toString().trim().split('\n')), done()) });

  beforeAll(async () => {
    t = await startTestApp({
      logStream,
      env: {
        SVC_HEADERS_TIMEOUT_MS: '1000',
        SVC_MAX_CONNECTIONS: '10',
        SVC_CRON_KEY: 'cron-secret-0123456789',
        SVC_METRICS_TOKEN: 'metrics-secret-012345',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  it.each([
    ['404', { url: '/nope' }, 404, 'not_found'],
    ['405 with Allow', { method: 'DELETE' as const, url: '/api/v1/catalog' }, 405, 'method_not_allowed'],
    [
      '413',
      {
        method: 'POST' as const,
        url: '/api/v1/receipt/verify',
        payload: `{"receipt":"${'x'.repeat(1_100_000)}"}`,
        headers: { 'content-type': 'application/json' },
      },
      413,
      'payload_too_large',
    ],
    ['414', { url: `/api/v1/catalog?pad=${'a'.repeat(9000)}` }, 414, 'uri_too_long'],
    [
      '415',
      { method: 'POST' as const, url: '/api/v1/receipt/verify', payload: 'receipt', headers: { 'content-type': 'text/csv' } },
      415,
      'unsupported_media_type',
    ],
    [
      '400 bad JSON',
      { method: 'POST' as const, url: '/api/v1/receipt/verify', payload: '{"receipt":', headers: { 'content-type': 'application/json' } },
      400,
      'invalid_json',
    ],
  ])('%s uses the house error body', async (_name, request, status, code) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ ...HOUSE_BODY, error: code });
    expect(res.headers['x-request-id']).toBe(res.json().request_id);
    if (status === 405) expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('431 from Node’s parser, before Fastify, uses the house error body', async () => {
    const { text } = await rawExchange(port, (s) =>
      s.write(`GET /api/v1/catalog HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(text.startsWith('HTTP/1.1 431')).toBe(true);
    expect(bodyOf(text)).toMatchObject({ ...HOUSE_BODY, error: 'header_too_large' });
  });

  it('X-Request-Id is honoured when well-formed, replaced otherwise, and echoed on every answer', async () => {
    const kept = await t.app.inject({ url: '/api/v1/catalog', headers: { 'x-request-id': 'agent-7.run_42' } });
    expect(kept.headers['x-request-id']).toBe('agent-7.run_42');
    const replaced = await t.app.inject({ url: '/nope', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.json().request_id).toBe(replaced.headers['x-request-id']);
    const tooLong = await t.app.inject({ url: '/api/v1/catalog', headers: { 'x-request-id': 'a'.repeat(129) } });
    expect(tooLong.headers['x-request-id']).not.toBe('a'.repeat(129));
  });

  it('secrets never reach the logs, and every request line carries its request id', async () => {
    logLines.length = 0;
    await t.app.inject({
      url: '/api/v1/viral/refresh?key=cron-secret-0123456789',
      headers: { authorization: 'Bearer svc-ak_top-secret-agent-key', 'x-payment': 'payment-secret-blob', 'x-request-id': 'log-probe-1' },
    });
    const joined = logLines.join('\n');
    expect(joined).toContain('log-probe-1');
    expect(joined).not.toContain('cron-secret-0123456789');
    expect(joined).not.toContain('top-secret-agent-key');
    expect(joined).not.toContain('payment-secret-blob');
    for (const line of logLines.filter((l) => l.includes('"req"') || l.includes('"res"')))
      expect(JSON.parse(line).reqId).toBe('log-probe-1');
  });

  it('a slowloris client sending one header byte a second is cut off by the headers timeout', async () => {
    const request = 'GET /api/v1/catalog HTTP/1.1\r\nhost: slow\r\nx-drip: abcdefghijklmnopqrstuvwxyz\r\n\r\n';
    const { text, closedAfterMs } = await rawExchange(port, (socket) => {
      let i = 0;
      const drip = setInterval(() => (socket.writable && i < request.length ? socket.write(request[i++]!) : clearInterval(drip)), 1000);
      socket.on('close', () => clearInterval(drip));
    });
    expect(closedAfterMs).toBeLessThan(4000);
    expect(text).toMatch(/^HTTP\/1.1 408/);
    expect(bodyOf(text)).toMatchObject({ ...HOUSE_BODY, error: 'request_timeout' });
  });

  it('connections past SVC_MAX_CONNECTIONS are refused while the first ones are served', async () => {
    const idle = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(port, '127.0.0.1', () => resolve(s));
          }),
      ),
    );
    const extra = await rawExchange(port, (s) => s.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n'));
    expect(extra.text).toBe('');
    idle.forEach((s) => s.destroy());
  });

  it('/metrics needs SVC_METRICS_TOKEN when it is set', async () => {
    expect((await t.app.inject('/metrics')).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456' } })).statusCode).toBe(401);
    const ok = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-secret-012345' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('svc_');
  });

  it('a 401 names its authentication scheme (WWW-Authenticate), as RFC 9110 asks; a 403 does not', async () => {
    const missing = await t.app.inject('/metrics');
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="svc"');
    const session = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {} });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/agent-session/event',
      headers: { authorization: 'Bearer ast_wrong' },
      payload: { session_id: session.json().session_id, kind: 'log', text: 'x' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.headers['www-authenticate']).toBeUndefined();
  });
});
