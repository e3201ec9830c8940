import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { freePort } from '../helpers/ports.js';
import { entryArgs } from '../helpers/entry.js';

/**
 * Audit finding 7: on SIGTERM the service stops accepting, ends its SSE streams cleanly, lets
 * in-flight requests finish within SVC_SHUTDOWN_TIMEOUT_MS, cuts what is left at that deadline,
 * closes its pools and exits 0. The real entry point runs in its own process.
 */
const REPO = new URL('../..', import.meta.url).pathname;

interface Server {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  log: () => string;
}

async function startServer(sim: Simulator, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...entryArgs('src/main.ts')], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-shutdown-')),
      SVC_SCHEDULER: '0',
      LOG_LEVEL: 'info',
      ...sim.env(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, port, exited, log: () => log };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${log}`);
}

/** Exit code, or 'still running' when the process outlives `ms`. */
const exitWithin = (server: Server, ms: number) =>
  Promise.race([server.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), ms))]);

/**
 * Bytes of the connection from `clientPort` that the server process has not read yet (Linux's /proc/net/tcp: the
 * receive queue of the server's end), undefined while the kernel knows no such connection. Node parses what it reads
 * in the same callback, so at 0 the server has seen everything the client sent.
 */
function unreadByServer(serverPort: number, clientPort: number): number | undefined {
  const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, , queues] = line.trim().split(/\s+/);
    if (local?.endsWith(hex(serverPort)) && remote?.endsWith(hex(clientPort))) return parseInt(queues!.split(':')[1]!, 16);
  }
  return undefined;
}

/** A live stream: resolves with how it finished ('end' for a clean close) and what it carried. */
function openStream(port: number, path: string): Promise<{ opened: Promise<void>; finished: Promise<{ how: string; text: string }> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let text = '';
      let opened: () => void;
      const openedP = new Promise<void>((r) => (opened = r));
      const finished = new Promise<{ how: string; text: string }>((done) => {
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          opened();
        });
        res.on('end', () => done({ how: 'end', text }));
        res.on('aborted', () => done({ how: 'aborted', text }));
        res.on('error', () => done({ how: 'error', text }));
      });
      resolve({ opened: openedP, finished });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('SIGTERM', () => {
  let sim: Simulator;
  beforeAll(async () => (sim = await new Simulator(loadFixtures()).start()));
  afterAll(() => sim.close());

  it('ends live streams cleanly, lets an in-flight request finish, refuses new work, closes and exits 0', async () => {
    sim.fault('coingecko', { kind: 'delay', ms: 1500 });
    const server = await startServer(sim, { SVC_SHUTDOWN_TIMEOUT_MS: '20000' });
    try {
      const stream = await openStream(server.port, '/api/data/stream');
      await stream.opened;
      const asked = sim.hits('coingecko');
      const slow = fetch(`http://127.0.0.1:${server.port}/api/data/preview?type=crypto-price&q=bitcoin&max_age=0`);
      await expect.poll(() => sim.hits('coingecko'), { timeout: 10_000 }).toBeGreaterThan(asked); // in flight now
      server.child.kill('SIGTERM');
      for (let i = 0; i < 100 && !server.log().includes('shutting down'); i++) await new Promise((r) => setTimeout(r, 50));
      const late = await fetch(`http://127.0.0.1:${server.port}/api/v1/catalog`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect([503, 'refused']).toContain(late);
      const answered = await slow;
      expect(answered.status).toBe(200);
      expect((await answered.json()).type).toBe('crypto-price');
      expect((await stream.finished).how).toBe('end');
      expect(await exitWithin(server, 15_000)).toBe(0);
      expect(server.log()).toContain('shutting down');
      expect(server.log()).toContain('shut down');
    } finally {
      server.child.kill('SIGKILL');
      sim.clearFaults();
    }
  }, 60_000);

  it('with SVC_SHUTDOWN_DRAIN_MS, fails readiness first: /readyz 503 while everything else is served, then closes and exits 0', async () => {
    const server = await startServer(sim, { SVC_SHUTDOWN_DRAIN_MS: '3000' });
    const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);
    try {
      expect((await get('/readyz')).status).toBe(200);
      server.child.kill('SIGTERM');
      for (let i = 0; i < 100 && !server.log().includes('/readyz answers 503'); i++) await new Promise((r) => setTimeout(r, 50));
      const readiness = await get('/readyz');
      expect(readiness.status).toBe(503);
      expect(await readiness.json()).toMatchObject({ ok: false, store: 'ok' });
      const served = await get('/api/v1/catalog');
      expect(served.status).toBe(200);
      // A proxy's kept-alive connection ends after this complete exchange, not while it may be sending on it.
      expect(served.headers.get('connection')).toBe('close');
      expect(server.log()).not.toContain('no new connections');
      expect(await exitWithin(server, 15_000)).toBe(0);
      expect(server.log()).toContain('shut down');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);

  it('cuts a request still in flight at SVC_SHUTDOWN_TIMEOUT_MS and still exits 0', async () => {
    // The request timeout is long: without a shutdown deadline this process would wait ten minutes.
    const server = await startServer(sim, { SVC_SHUTDOWN_TIMEOUT_MS: '500', SVC_REQUEST_TIMEOUT_MS: '600000' });
    try {
      const socket = connect(server.port, '127.0.0.1');
      await once(socket, 'connect');
      socket.on('error', () => undefined);
      // Headers and 1 of 100 body bytes: the request stays in flight until the client sends the rest, which it never does.
      const head = 'POST /api/agent-session/start HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{';
      await new Promise((written) => socket.write(head, written));
      // Sent is not yet read: the request is in flight once the server has read its head.
      await expect.poll(() => unreadByServer(server.port, socket.localPort!), { timeout: 10_000 }).toBe(0);
      server.child.kill('SIGTERM');
      const closed = once(socket, 'close');
      expect(await exitWithin(server, 15_000)).toBe(0);
      await closed;
      expect(server.log()).toContain('requests still in flight at the deadline');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});
