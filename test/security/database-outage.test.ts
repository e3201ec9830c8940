import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS } from '../helpers/backends.js';
import { freePort } from '../helpers/private-redis.js';
import { isDatabaseOutage } from '../../src/store/db.js';

/**
 * The database going away at runtime used to answer 500 `internal_error`, and Postgres dropping an
 * idle pooled connection emitted an `error` event nobody handled, which ends a Node process. The
 * app reaches Postgres through a TCP proxy this test cuts: every request is answered (503
 * `store_unavailable` with Retry-After where the database is needed), the process survives, and
 * it recovers when the proxy is back.
 */
class CuttableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly target: URL,
    readonly port: number,
  ) {}

  static async start(target: URL): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(target, await freePort());
    await proxy.open();
    return proxy;
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => this.sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Stops listening and cuts every open connection, as a database restart or a network cut would. */
  async cut(): Promise<void> {
    const closed = new Promise((resolve) => this.server!.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

describe.runIf(SHARED_STORE_BACKENDS.length > 0)('Postgres cut at runtime', () => {
  let proxy: CuttableProxy;
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(process.env.DATABASE_URL!);
    proxy = await CuttableProxy.start(target);
    const viaProxy = new URL(target);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    t = await startTestApp({ env: { DATABASE_URL: viaProxy.toString() } });
  });
  afterAll(async () => {
    await t.close();
    await proxy.cut();
  });

  const startSession = () => t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'outage' } });

  it('answers 503 store_unavailable with Retry-After while it is away, keeps serving what needs no database, and recovers', async () => {
    expect((await startSession()).statusCode).toBe(200);
    await proxy.cut(); // the pool's idle connections die: an unhandled pool error would end this process here
    await new Promise((resolve) => setTimeout(resolve, 50));

    const refused = await startSession();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'store_unavailable', details: { retry_after_s: 5 } });
    expect(refused.headers['retry-after']).toBe('5');
    expect((await t.app.inject('/api/v1/catalog')).statusCode).toBe(200);
    expect((await t.app.inject('/readyz')).statusCode).toBe(503);

    await proxy.open();
    expect((await startSession()).statusCode).toBe(200);
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);
  });
});

describe('what counts as the database being away', () => {
  it('connection failures of either driver, not other errors', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const away of [
      coded('ECONNREFUSED'),
      coded('57P01'), // admin_shutdown
      coded('08006'), // connection_failure
      coded('SQLITE_BUSY'),
      coded('SQLITE_FULL'),
      coded('SQLITE_IOERR_WRITE'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ])
      expect(isDatabaseOutage(away)).toBe(true);
    for (const fault of [coded('23505'), coded('42P01'), coded('SQLITE_CONSTRAINT'), new TypeError('x is undefined'), undefined, 'text'])
      expect(isDatabaseOutage(fault)).toBe(false);
  });
});
