import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { uniqueName } from '../helpers/backends.js';
import { freePort } from '../helpers/ports.js';
import { entryArgs } from '../helpers/entry.js';

it('SVC_WORKERS is 1 to 99 or auto, and more than one worker needs REDIS_URL', () => {
  expect(loadConfig({ SVC_WORKERS: '3', REDIS_URL: 'redis://127.0.0.1:6379' }).workers).toBe(3);
  expect(loadConfig({}).workers).toBe(1);
  expect(() => loadConfig({ SVC_WORKERS: '0' })).toThrow(/SVC_WORKERS/);
  expect(() => loadConfig({ SVC_WORKERS: 'many' })).toThrow(/SVC_WORKERS/);
  expect(() => loadConfig({ SVC_WORKERS: '2' })).toThrow(/SVC_WORKERS: 2 processes need REDIS_URL/);
});

/** The workers start one after the other, each loading the whole service (slow on a loaded 2-core runner). */
const START_UP_MS = 180_000;
const WATCHERS = 6;

describe.runIf(process.env.REDIS_URL)('SVC_WORKERS=2 on one port', () => {
  let base = '';
  let primary: ChildProcess;
  let log = '';

  beforeAll(async () => {
    // Not a random port: it could be an ephemeral port the kernel already gave another test's socket.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, [...entryArgs('src/main.ts')], {
      env: {
        ...process.env,
        SVC_WORKERS: '2',
        PORT: String(port),
        HOST: '127.0.0.1',
        SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-workers-')),
        DATABASE_URL: '',
        SVC_REDIS_PREFIX: `${uniqueName('workers')}:`,
        SVC_SCHEDULER: '0',
        SVC_SESSION_WATCHERS_PER_IP: '50',
        SVC_SESSION_WATCHERS_PER_SESSION: '50',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    primary.stdout!.on('data', (d) => (log += d));
    primary.stderr!.on('data', (d) => (log += d));
    for (const until = Date.now() + START_UP_MS; !log.includes('2 workers listening');) {
      if (Date.now() > until || primary.exitCode !== null) throw new Error(`workers did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, START_UP_MS + 5_000);

  afterAll(() => {
    primary.kill('SIGTERM');
  });

  it('two worker processes serve requests, and an event posted to one reaches watchers on both', async () => {
    const workers = readFileSync(`/proc/${primary.pid}/task/${primary.pid}/children`, 'utf8').trim().split(/\s+/);
    expect(workers).toHaveLength(2);
    for (let i = 0; i < 4; i++) expect((await fetch(`${base}/api/v1/catalog`)).status).toBe(200);

    const session = (await (
      await fetch(`${base}/api/agent-session/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'workers' }),
      })
    ).json()) as { session_id: string; session_token: string };
    // Each open stream holds a connection of its own; the primary hands connections to the workers in turn,
    // so the watchers are spread over both and at least one is on a worker other than the poster's.
    const streams = await Promise.all(
      Array.from({ length: WATCHERS }, async () => {
        const response = await fetch(`${base}/api/agent-session/stream?session_id=${session.session_id}`);
        expect(response.status).toBe(200);
        return response.body!.pipeThrough(new TextDecoderStream()).getReader();
      }),
    );
    const posted = await fetch(`${base}/api/agent-session/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
      body: JSON.stringify({ session_id: session.session_id, kind: 'click', text: 'heard by every worker' }),
    });
    expect(posted.status).toBe(200);
    const heard = await Promise.all(
      streams.map(async (reader) => {
        let text = '';
        while (!text.includes('heard by every worker')) {
          const { value, done } = await reader.read();
          if (done) break;
          text += value;
        }
        await reader.cancel();
        return text.includes('heard by every worker');
      }),
    );
    expect(heard).toEqual(Array.from({ length: WATCHERS }, () => true));
  }, 60_000);
});
