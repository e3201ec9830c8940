import { connect } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BUS_BACKENDS } from '../helpers/backends.js';

/** Sends a GET and hangs up at once, before the server can have answered. */
async function askAndHangUp(port: number, path: string): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n\r\n`);
  socket.destroy();
}

/** Several rounds of clients hanging up at once: each round some close while their slot is being taken. */
async function hangUps(port: number, path: string): Promise<void> {
  for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 30 }, () => askAndHangUp(port, path)));
}

/** The status a fresh client gets, its stream closed at once. */
async function statusOf(url: string): Promise<number> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  controller.abort();
  return res.status;
}

describe.each(BUS_BACKENDS)('stream slots of clients that hang up before their stream opens (%s)', (backend) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({
      redis: backend === 'redis',
      env: { SVC_STREAM_MAX_PER_IP: '2', SVC_SESSION_WATCHERS_PER_IP: '2' },
    });
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(() => t.close());

  /** Polls `check` until it holds (slots are released when the server sees the close, a moment after it). */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let waited = 0; waited < 5000; waited += 20) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  };

  it('frees the data stream slot', async () => {
    await hangUps(port, '/api/data/stream');
    expect(await eventually(async () => (await statusOf(`http://127.0.0.1:${port}/api/data/stream`)) === 200)).toBe(true);
  });

  it('frees the session watcher slot', async () => {
    const started = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {} });
    const id = started.json<{ session_id: string }>().session_id;
    await hangUps(port, `/api/agent-session/stream?session_id=${id}`);
    const watchers = async () => (await t.app.inject(`/api/agent-session/session?session_id=${id}`)).json<{ watchers: number }>().watchers;
    expect(
      await eventually(async () => (await statusOf(`http://127.0.0.1:${port}/api/agent-session/stream?session_id=${id}`)) === 200),
    ).toBe(true);
    expect(await eventually(async () => (await watchers()) === 0)).toBe(true);
  });
});
