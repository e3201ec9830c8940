import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

/**
 * Regression: Try-it-out on /docs used to call SVC_PUBLIC_URL, which the page's CSP (connect-src
 * 'self') blocks whenever the page is served under another name. The test app's public URL is
 * http://svc.test; the browser opens it as http://localhost:<port>.
 */
let t: TestApp;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://localhost:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe('/docs in a browser', () => {
  it('Try it out calls the origin the page was served from, with no connect-src violation', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/connect-src|Refused to connect/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${origin}/docs/`);
    const operation = page.locator('#operations-data-getCatalog');
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answer = page.waitForResponse((res) => res.url() === `${origin}/api/v1/catalog`);
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await answer).status()).toBe(200);
    await expect.poll(() => operation.locator('.live-responses-table tbody .response-col_status').first().textContent()).toContain('200');
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);
});
