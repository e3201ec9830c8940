import { connect } from 'node:net';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { TICKS_CHANNEL, publishBatch } from '../../src/stream/hub.js';

it('drops a data-stream client that stops reading instead of buffering for it without bound', async () => {
  const t = await startTestApp();
  const base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const socket = connect(Number(base.port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET /api/data/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await once(socket, 'data'); // the headers and `: ok`; from here on the client reads nothing
  socket.pause();
  const tick = { type: 'weather', q: 'slow', pad: 'x'.repeat(64 * 1024) };
  const published = 200;
  for (let i = 0; i < published; i++) {
    await publishBatch(t.deps.bus, TICKS_CHANNEL, [tick]);
    await new Promise((r) => setImmediate(r));
  }
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.resume();
  // Dropped: the connection ends with what was buffered before the bound; kept, it would stay open.
  const ended = await Promise.race([once(socket, 'close').then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 10_000))]);
  expect(ended).toBe('closed');
  expect(received).toBeLessThan((published * tick.pad.length) / 2);
  socket.destroy();
  await t.close();
}, 30_000);
