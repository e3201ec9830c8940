import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { startListeningApp, type TestApp } from '../helpers/app.js';
import { listenOnLoopback } from '../helpers/ports.js';
import { launchChromium } from '../helpers/browser.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const XSS = '<img src=x onerror=alert(1)>';

let t: TestApp;
let base: string;
let browser: Browser;
let host: Server;
let hostBase: string;
/** The example host page as a site would serve it: the svc origin and a session id filled in, with the CSP the README recommends. */
let hostPage = '';

beforeAll(async () => {
  ({ t, base } = await startListeningApp());
  host = createServer((req, res) => {
    const body = req.url === '/blank' ? hostPage.replace(/<script[^>]*><\/script>/, '') : hostPage;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${base}; connect-src ${base}; img-src ${base}; style-src 'unsafe-inline'`,
    });
    res.end(body);
  });
  hostBase = `http://127.0.0.1:${await listenOnLoopback(host)}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  host?.close();
  await t?.close();
});

async function start(label: string) {
  const session = (await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label } })).json() as {
    session_id: string;
    session_token: string;
    watch_url: string;
  };
  const authorized = (url: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${session.session_token}` },
      payload: { session_id: session.session_id, ...payload },
    });
  const post = async (event: object) => expect((await authorized('/api/agent-session/event', event)).statusCode).toBe(200);
  const end = async () => expect((await authorized('/api/agent-session/end', {})).statusCode).toBe(200);
  return { ...session, post, end };
}

/** Everything a page must not do: dialogs (a script ran), CSP violations, requests for the XSS image. */
function watchForTrouble(page: Page) {
  const trouble: string[] = [];
  page.on('dialog', (d) => void d.dismiss().then(() => trouble.push(`dialog: ${d.message()}`)));
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && trouble.push(`console: ${m.text()}`),
  );
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && trouble.push(`${r.status()}: ${r.url()}`));
  page.on('pageerror', (e) => trouble.push(`pageerror: ${e.message}`));
  page.on('request', (r) => /\/x$/.test(r.url()) && trouble.push(`request: ${r.url()}`));
  return trouble;
}

describe('watch page in Chromium', () => {
  it('shows posted events in order without reload, renders markup as text, and ends', async () => {
    const s = await start('Booking a flight');
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const trouble = watchForTrouble(page);
    await page.goto(s.watch_url);
    await expect.poll(() => page.textContent('.status')).toBe('live');
    expect(await page.title()).toBe('Booking a flight · svc live session');

    await s.post({ kind: 'navigate', text: 'https://airline.example/search' });
    await s.post({ kind: 'type', text: 'From: BER  To: LIS' });
    await s.post({ kind: 'click', text: 'Search flights' });
    await expect.poll(() => page.locator('.timeline li').allTextContents()).toHaveLength(3);
    expect(await page.textContent('.watchers')).toBe('1');
    const texts = await page.locator('.timeline .text').allTextContents();
    expect(texts).toEqual(['https://airline.example/search', 'From: BER  To: LIS', 'Search flights']);
    expect(await page.locator('.timeline .kind').allTextContents()).toEqual(['navigate', 'type', 'click']);

    // An `error` kind is an event like any other: shown, and the page stays live (it once went to onerror).
    await s.post({ kind: 'error', text: 'payment form timed out' });
    await expect.poll(() => page.locator('.timeline .kind').last().textContent()).toBe('error');
    expect(await page.locator('.timeline .text').last().textContent()).toBe('payment form timed out');
    await page.waitForTimeout(300);
    expect(await page.textContent('.status')).toBe('live');

    await s.post({ kind: 'thought', text: XSS });
    await expect.poll(() => page.locator('.timeline .text').last().textContent()).toBe(XSS);
    expect(await page.locator('.timeline img').count()).toBe(0);

    const shot = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#2f6fdd' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="640" height="360"><rect x="40" y="40" width="560" height="60" fill="#fff"/><text x="60" y="82" font-size="32" fill="#222">airline.example · results</text></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    await s.post({ kind: 'screenshot', text: 'Results page', screenshot_b64: shot.toString('base64') });
    await expect.poll(() => page.locator('.shot img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    expect(await page.locator('.timeline').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('.timeline').getAttribute('tabindex')).toBe('0');
    expect(await page.locator('main').count()).toBe(1);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL('watch-page.png', ARTIFACTS).pathname, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: new URL('watch-page-phone.png', ARTIFACTS).pathname, fullPage: true });

    await s.end();
    await expect.poll(() => page.textContent('.status')).toBe('ended');
    expect(await page.locator('.timeline .kind').last().textContent()).toBe('end');
    await page.waitForTimeout(300);
    expect(trouble).toEqual([]);
    await page.close();
  });

  it('reconnects by itself and catches up without repeating events', async () => {
    const s = await start('Reconnects');
    const page = await browser.newPage();
    await page.goto(s.watch_url);
    await expect.poll(() => page.textContent('.status')).toBe('live');
    await s.post({ kind: 'log', text: 'one' });
    await expect.poll(() => page.locator('.timeline li').count()).toBe(1);
    t.app.server.closeAllConnections(); // every stream drops; EventSource retries with Last-Event-ID
    await s.post({ kind: 'log', text: 'two' });
    await s.post({ kind: 'log', text: 'three' });
    await expect.poll(() => page.locator('.timeline .text').allTextContents(), { timeout: 10_000 }).toEqual(['one', 'two', 'three']);
    await page.close();
  });
});

describe('a plain EventSource in Chromium', () => {
  it('gets every posted event, an error kind included, through onmessage alone', async () => {
    const s = await start('Plain client');
    const page = await browser.newPage();
    await page.goto(`${base}/api/agent-session/session?session_id=${s.session_id}`); // same origin, no CSP
    await page.evaluate((url) => {
      const got: unknown[] = [];
      Object.assign(window, { got });
      const source = new EventSource(url);
      source.onmessage = (e) => got.push(JSON.parse(e.data));
      source.onerror = () => got.push('onerror');
    }, `${base}/api/agent-session/stream?session_id=${s.session_id}`);
    await expect.poll(() => t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`).then((r) => r.json().watchers)).toBe(1);
    await s.post({ kind: 'click', text: 'Search' });
    await s.post({ kind: 'error', text: 'timed out' });
    await s.post({ kind: 'log', text: 'retrying' });
    const got = () => page.evaluate(() => (window as unknown as { got: unknown[] }).got);
    await expect.poll(got).toHaveLength(3);
    expect(await got()).toEqual([
      { session_id: s.session_id, kind: 'click', text: 'Search', screenshot_b64: null, ts: expect.any(Number), seq: 1 },
      { session_id: s.session_id, kind: 'error', text: 'timed out', screenshot_b64: null, ts: expect.any(Number), seq: 2 },
      { session_id: s.session_id, kind: 'log', text: 'retrying', screenshot_b64: null, ts: expect.any(Number), seq: 3 },
    ]);
    await page.close();
  });
});

describe('widget in Chromium', () => {
  it('renders the live timeline inside a host page from another origin, isolated from its CSS and globals', async () => {
    const s = await start('Widget session');
    const example = readFileSync(new URL('../../examples/widget-host.html', import.meta.url), 'utf8');
    hostPage = example.replace('http://localhost:8080', base).replace('as_REPLACE_WITH_YOUR_SESSION_ID', s.session_id);
    expect(hostPage).not.toBe(example);
    const page = await browser.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${hostBase}/blank`);
    const baseline = await page.evaluate(() => Object.getOwnPropertyNames(window));
    await page.goto(`${hostBase}/`);
    const widget = page.locator('[data-svc-watch]');
    await expect.poll(() => widget.locator('.status').textContent()).toBe('live');
    expect(await widget.locator('.session-label').textContent()).toBe('Widget session');

    await s.post({ kind: 'search', text: 'flights BER LIS' });
    await s.post({ kind: 'click', text: XSS });
    await s.post({ kind: 'error', text: 'results did not load' });
    await s.post({ kind: 'fetch', text: 'GET /results' });
    await expect
      .poll(() => widget.locator('.text').allTextContents())
      .toEqual(['flights BER LIS', XSS, 'results did not load', 'GET /results']);
    expect(await widget.locator('.status').textContent()).toBe('live');
    const item = widget.locator('li').first();
    expect(await item.evaluate((li) => getComputedStyle(li).display)).toBe('grid'); // the host's `li {display:none}` stays outside
    expect(await item.evaluate((li) => getComputedStyle(li).fontFamily)).not.toContain('Comic Sans');
    expect(await page.evaluate(() => document.querySelector('[data-svc-watch]')?.nextElementSibling?.textContent)).toBe(
      'Text after the widget.',
    );
    const leaked = (await page.evaluate(() => Object.getOwnPropertyNames(window))).filter((name) => !baseline.includes(name));
    expect(leaked).toEqual([]);
    await page.waitForTimeout(200);
    expect(trouble).toEqual([]);
    await page.close();
  });
});
