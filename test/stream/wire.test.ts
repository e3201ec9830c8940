import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(() => t.close());

/** One raw connection: everything it receives, as text. */
function rawConnection(): { socket: Socket; received: () => string; waitFor: (text: string, ms?: number) => Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
  const waitFor = async (wanted: string, ms = 2000) => {
    for (let waited = 0; waited < ms && !text.includes(wanted); waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(text).toContain(wanted);
  };
  return { socket, received: () => text, waitFor };
}

/** The body of a chunked response: every chunk's size line checked against its bytes. */
function dechunk(body: string): { chunks: string[]; ended: boolean; rest: string } {
  const chunks: string[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return { chunks, ended: false, rest: body.slice(at) };
    const size = parseInt(body.slice(at, lineEnd), 16);
    expect(Number.isNaN(size)).toBe(false);
    if (size === 0) return { chunks, ended: true, rest: body.slice(lineEnd + 4) };
    chunks.push(body.slice(lineEnd + 2, lineEnd + 2 + size));
    expect(body.slice(lineEnd + 2 + size, lineEnd + 4 + size)).toBe('\r\n');
    at = lineEnd + 4 + size;
  }
}

describe('session streams on the wire', () => {
  it('sends each message as one well-formed chunk, ends with the last chunk, and the connection then serves the next request', async () => {
    const started = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'wire' } });
    const { session_id, session_token } = started.json();
    const post = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        headers: { authorization: `Bearer ${session_token}` },
        payload: { session_id, ...payload },
      });
    const { socket, received, waitFor } = rawConnection();
    socket.write(`GET /api/agent-session/stream?session_id=${session_id}&state=1 HTTP/1.1\r\nHost: svc.test\r\n\r\n`);
    await waitFor(': ok');
    expect((await post({ kind: 'click', text: 'first' })).statusCode).toBe(200);
    expect((await post({ kind: 'log', text: 'second' })).statusCode).toBe(200);
    await waitFor('"text":"second"');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/agent-session/end',
          headers: { authorization: `Bearer ${session_token}` },
          payload: { session_id },
        })
      ).statusCode,
    ).toBe(200);
    await waitFor('\r\n0\r\n\r\n');

    const [head, body] = [received().slice(0, received().indexOf('\r\n\r\n')), received().slice(received().indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    const { chunks, ended, rest } = dechunk(body);
    expect(ended).toBe(true);
    expect(rest).toBe('');
    expect(chunks[0]).toBe(': ok\n\n');
    const messages = chunks.filter((chunk) => chunk.startsWith('id: '));
    expect(messages.map((m) => JSON.parse(m.split('\ndata: ')[1]!).text)).toEqual(['first', 'second', 'ended']);
    for (const chunk of chunks) expect(chunk.endsWith('\n\n')).toBe(true);

    // Nothing followed the last chunk: the same connection answers another request.
    socket.write('GET /healthz HTTP/1.1\r\nHost: svc.test\r\n\r\n');
    await waitFor('"ok"');
    expect(received().slice(received().indexOf('\r\n0\r\n\r\n') + 7)).toMatch(/^HTTP\/1\.1 200 OK/);
    socket.destroy();
  });

  it('writes a stream pipelined behind a slow answer through the response, still one well-formed chunk per message', async () => {
    const started = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'pipelined' } });
    const { session_id, session_token } = started.json();
    const session = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${session_token}` }, payload: { session_id, ...payload } });
    // The first answer waits for its upstream's deadline: the stream's response has no socket of its own when it opens.
    t.sim.fault('open-meteo', { kind: 'hang' });
    const { socket, received, waitFor } = rawConnection();
    socket.write(
      'GET /api/data/preview?type=weather&q=12.34,56.78&max_age=0 HTTP/1.1\r\nHost: svc.test\r\n\r\n' +
        `GET /api/agent-session/stream?session_id=${session_id} HTTP/1.1\r\nHost: svc.test\r\n\r\n`,
    );
    await waitFor('"type":"weather"', 15_000); // after the primary upstream's deadline
    await waitFor(': ok');
    t.sim.clearFaults();
    expect((await session('/api/agent-session/event', { kind: 'log', text: 'behind' })).statusCode).toBe(200);
    await waitFor('"text":"behind"');
    expect((await session('/api/agent-session/end', {})).statusCode).toBe(200);
    await waitFor('\r\n0\r\n\r\n');

    const second = received().slice(received().lastIndexOf('HTTP/1.1 200 OK'));
    const { chunks, ended, rest } = dechunk(second.slice(second.indexOf('\r\n\r\n') + 4));
    expect([ended, rest]).toEqual([true, '']);
    expect(chunks[0]).toBe(': ok\n\n');
    expect(chunks.filter((chunk) => chunk.startsWith('id: ')).map((m) => JSON.parse(m.split('\ndata: ')[1]!).text)).toEqual(['behind']);
    socket.destroy();
  });
});
