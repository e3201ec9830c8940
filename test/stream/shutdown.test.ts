import { request } from 'node:http';
import { expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';

// Regression: app.close() (SIGTERM) waited forever while a live-stream client stayed connected.
it('closing the app ends open live streams instead of waiting for them', async () => {
  const t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  let opened: () => void;
  const streaming = new Promise<void>((resolve) => (opened = resolve));
  const ended = new Promise<string>((resolve) => {
    request({ host: '127.0.0.1', port, path: '/api/data/stream' }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => ((text += chunk.toString()), opened()));
      res.on('end', () => resolve(text));
    }).end();
  });
  await streaming; // the stream's first bytes: the server holds it open now
  const closed = await Promise.race([t.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('hung'), 8000))]);
  expect(closed).toBe('closed');
  expect(await ended).toContain(': ok\n\n');
});
