import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 33, finding 8: a JSON body over a route's limit (a 2 MB screenshot event) was sometimes
 * answered by a connection reset instead of the 413: the server closed the socket while the client
 * was still writing, and the reset destroyed the answer before the client read it.
 */
interface Exchange {
  status: number;
  body: string;
  /** The connection was reset before the client read an answer. */
  reset: boolean;
}

/** Writes `head`, then a body of `total` bytes in small chunks with a pause now and then, until the server answers. */
function post(port: number, head: string, total: number, chunked: boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let reset = false;
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => (reset = answer === ''));
    socket.on('close', () => {
      const [headers = '', body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0), body, reset });
    });
    const piece = Buffer.alloc(16 * 1024, 'a');
    const frame = (data: Buffer) =>
      chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
    const send = async () => {
      socket.write(head);
      socket.write(frame(Buffer.from('{"kind":"click","text":"')));
      for (let sent = 0; sent < total && answer === '' && !socket.destroyed; sent += piece.length) {
        socket.write(frame(piece));
        if (sent % (256 * 1024) === 0) await new Promise((r) => setTimeout(r, 2));
      }
    };
    socket.on('connect', () => void send());
  });
}

const headOf = (path: string, length: number | 'chunked') =>
  `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
  (length === 'chunked' ? 'transfer-encoding: chunked\r\n' : `content-length: ${length}\r\n`) +
  '\r\n';

describe('over-limit JSON bodies', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  const MB = 1024 * 1024;
  it.each([
    ['a 2 MB screenshot event declaring its length', '/api/agent-session/event', 2 * MB, false],
    ['a 2 MB screenshot event in chunks', '/api/agent-session/event', 2 * MB, true],
    ['a 3 MB body on a route with the default limit', '/api/v1/constitutional/classify', 3 * MB, false],
  ])('%s: the 413 reaches the client every time', async (_name, path, total, chunked) => {
    const answers: Exchange[] = [];
    for (let i = 0; i < 15; i++) answers.push(await post(port, headOf(path, chunked ? 'chunked' : total + 26), total, chunked));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 413));
    expect(answers.filter((a) => a.reset)).toEqual([]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: 'payload_too_large', request_id: expect.any(String) });
  });
});
