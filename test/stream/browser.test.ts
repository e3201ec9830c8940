import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_STREAM_WATCH: 'crypto-price' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

it('a plain EventSource gets data ticks through onmessage alone, the latest first, then live ones', async () => {
  await t.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '40.71,-74.01' } }); // before the client connects
  const page = await browser.newPage();
  await page.goto(`${base}/api/v1/catalog`); // same origin
  await page.evaluate((url) => {
    const got: unknown[] = [];
    Object.assign(window, { got });
    const source = new EventSource(url);
    source.onmessage = (e) => got.push(JSON.parse(e.data));
    source.onerror = () => got.push('onerror');
  }, `${base}/api/data/stream`);
  const got = () => page.evaluate(() => (window as unknown as { got: { type: string; q: string }[] }).got);
  await expect.poll(got).toEqual([expect.objectContaining({ type: 'weather', q: '40.71,-74.01', source: 'open-meteo' })]);
  await t.app.scheduler.tick(); // the poller asks for crypto-price's catalog example (other jobs may fetch too)
  await expect
    .poll(async () => (await got()).filter((tick) => tick.type === 'crypto-price' && tick.q === 'bitcoin,ethereum'))
    .toEqual([expect.objectContaining({ coin: 'bitcoin' }), expect.objectContaining({ coin: 'ethereum' })]);
  expect(await got()).not.toContain('onerror');
  await page.close();
});
