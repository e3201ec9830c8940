import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startListeningApp, type TestApp } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

/** Dialogs, CSP violations, script errors: none may happen. */
function watchForTrouble(page: Page) {
  const trouble: string[] = [];
  page.on('dialog', (d) => void d.dismiss().then(() => trouble.push(`dialog: ${d.message()}`)));
  // The browser's own favicon request 404s: not the page's doing.
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && trouble.push(`console: ${m.text()}`),
  );
  page.on('pageerror', (e) => trouble.push(`pageerror: ${e.message}`));
  return trouble;
}

let browser: Browser;
let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await startListeningApp({ env: { UPSTREAM_EIA_KEY: '', UPSTREAM_TWITCH_AUTH_KEY: '' } }));
  const fetchFresh = (type: string, q: string) =>
    t.app.inject({ url: `/api/data/preview?type=${type}&q=${encodeURIComponent(q)}&max_age=0` });
  await fetchFresh('crypto-price', 'bitcoin,ethereum');
  await fetchFresh('energy-oil', 'wti');
  t.sim.fault('binance-futures', { kind: 'status', status: 451 });
  t.sim.fault('bybit', { kind: 'status', status: 403 });
  t.sim.fault('hyperliquid', { kind: 'status', status: 451 });
  await fetchFresh('funding-rates', 'BTC');
  t.sim.clearFaults();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const rowFor = (page: Page, type: string) => page.locator('.types tbody tr', { has: page.locator(`td.name:text-is("${type}")`) });

describe('the /status page in Chromium', () => {
  it('shows every type with its state, who answered and why, and every upstream (desktop, 1280 px)', async () => {
    const response = await fetch(`${base}/status`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await response.text()).not.toMatch(/<script>|style=/);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/status`);
    await expect.poll(() => page.locator('.types tbody tr').count()).toBe(43);
    expect(await rowFor(page, 'crypto-price').locator('.state').textContent()).toBe('working');
    expect(await rowFor(page, 'crypto-price').locator('td').nth(2).textContent()).toBe('coingecko');
    expect(await rowFor(page, 'energy-oil').locator('.state').getAttribute('data-state')).toBe('degraded');
    expect(await rowFor(page, 'energy-oil').locator('td.reason').textContent()).toBe('fred-graph answered as a fallback; eia needs a key');
    const keyLink = rowFor(page, 'energy-oil').locator('td[data-label="Key"] a');
    expect(await keyLink.getAttribute('href')).toBe('https://www.eia.gov/opendata/register.php');
    expect(await rowFor(page, 'funding-rates').locator('td.reason').textContent()).toBe(
      'binance-futures refuses requests from this region (HTTP 451); no fallback answered',
    );
    expect(await rowFor(page, 'twitch-top').locator('.state').textContent()).toBe('needs a key');
    expect(await rowFor(page, 'weather').locator('.terms').textContent()).toBe('paid plan');
    expect(await page.locator('.summary li').allTextContents()).toEqual([
      '1 working',
      '1 degraded',
      '1 failing',
      '1 needs a key',
      '39 not called yet',
    ]);
    const firstHost = page.locator('.hosts tbody tr').first();
    expect(await firstHost.locator('td.name').textContent()).toBe('binance'); // called hosts first, by name
    expect(await page.locator('.hosts tbody tr').count()).toBeGreaterThanOrEqual(72);
    await page.screenshot({ path: '/tmp/svc-status-1280.png', fullPage: false });
    await page.locator('#hosts-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/svc-status-1280-upstreams.png', fullPage: false });
    expect(trouble).toEqual([]);
    await page.close();
  });

  it('stacks each row into a card that fits a phone (390 px), without sideways scrolling', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/status`);
    await expect.poll(() => page.locator('.types tbody tr').count()).toBe(43);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const label = await rowFor(page, 'crypto-price')
      .locator('td[data-label="State"]')
      .evaluate((td) => getComputedStyle(td, '::before').content);
    expect(label).toBe('"State: "');
    await page.screenshot({ path: '/tmp/svc-status-390.png', fullPage: false });
    await rowFor(page, 'funding-rates').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/svc-status-390-failing.png', fullPage: false });
    expect(trouble).toEqual([]);
    await page.close();
  });
});
