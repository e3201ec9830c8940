import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { ModelFakes } from '../fakes/models.js';
import { servePrices, startPanel } from '../olympics/helpers.js';
import { SITE_PAGES } from '../../src/core/brand.js';
import { launchChromium } from '../helpers/browser.js';

/** Screenshots for a person to look at (gitignored): test/artifacts/pages/<page>-<width>.png. */
const SHOTS = new URL('../artifacts/pages/', import.meta.url);
const WIDTHS = [1280, 390] as const;
const DAY_MS = 86_400_000;

let t: TestApp;
let fakes: ModelFakes;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  const panel = await startPanel();
  fakes = panel.fakes;
  t = await startTestApp({ env: panel.env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Two olympics rounds, so the scoreboard has rows and events to lay out.
  servePrices(t.sim, [100, 50, 20, 1, 0.1]);
  await t.app.scheduler.tick();
  servePrices(t.sim, [110, 52, 23, 1, 0.1]);
  t.clock.advance(DAY_MS);
  await t.app.scheduler.tick();
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await fakes?.close();
});

async function open(path: string, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, isMobile: width < 600, deviceScaleFactor: 1 });
  await page.goto(`${origin}${path}`);
  return page;
}

/** The first screen as a reader sees it, and the whole page. */
async function shot(page: Page, name: string, width: number) {
  await page.screenshot({ path: new URL(`${name}-${width}.png`, SHOTS).pathname });
  await page.screenshot({ path: new URL(`${name}-${width}-full.png`, SHOTS).pathname, fullPage: true });
}

/** At phone width nothing but a scroll region may be wider than the screen. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

const PAGES = [
  { name: 'landing', path: '/', ready: 'ul.types li' },
  { name: 'olympics', path: '/olympics', ready: '.medals tbody tr' },
  { name: 'status', path: '/status', ready: 'main' },
  { name: 'pricing', path: '/how-svc-saves-agents-money', ready: 'table' },
];

describe('pages in Chromium at desktop and phone width', () => {
  it.each(PAGES.flatMap((p) => WIDTHS.map((w) => [p.name, w, p] as const)))(
    '%s at %i px: fits the screen, has a favicon and the site navigation',
    async (name, width, { path, ready }) => {
      const page = await open(path, width);
      await page.locator(ready).first().waitFor();
      await shot(page, name, width);
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      const served = await page.request.get(`${origin}${icon}`);
      expect(served.headers()['content-type']).toContain('image/svg+xml');
      expect(await page.locator('nav.site a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(
        SITE_PAGES.map((p) => p.href),
      );
      await page.close();
    },
    60_000,
  );

  it('the landing page says what svc is and how to try it, with clean type descriptions', async () => {
    const page = await open('/', 1280);
    expect(await page.locator('main p').first().textContent()).toMatch(/self-hostable data service for AI agents/);
    expect(await page.locator('main pre').first().textContent()).toContain('/api/data/preview?type=crypto-price&q=bitcoin');
    const items = await page.locator('ul.types li').allTextContents();
    expect(items.length).toBe((await t.app.inject('/api/v1/catalog')).json().count);
    const trending = items.find((i) => i.startsWith('crypto-trending'))!;
    expect(trending).toMatch(/^crypto-trending — The coins most searched/);
    for (const item of items) expect(item, item).not.toMatch(/— (empty;|`|[a-z])/);
    await page.close();
  }, 60_000);

  it('the olympics table scrolls sideways on a phone and shows readable times', async () => {
    const page = await open('/olympics', 390);
    await page.locator('.medals tbody tr').first().waitFor();
    const region = page.locator('.scroll');
    const [scrollWidth, clientWidth] = await region.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await region.evaluate((el) => el.scrollBy(200, 0));
    expect(await region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    const when = page.locator('.event time').first();
    const text = (await when.textContent()) ?? '';
    expect(text).toMatch(/\d{1,2}:\d{2}/);
    expect(new Date((await when.getAttribute('datetime'))!).getUTCFullYear()).toBeGreaterThan(2020);
    await page.close();
  }, 60_000);

  it.each(WIDTHS)(
    '/docs at %i px: svc logo and favicon, no Fastify logo, a viewport, locks only where a credential is taken',
    async (width) => {
      const page = await open('/docs/', width);
      await page.locator('.opblock').first().waitFor();
      await shot(page, 'docs', width);
      expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('width=device-width');
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      const logo = await page.locator('.topbar img').getAttribute('src');
      expect(logo).toMatch(/^data:image\/svg\+xml/);
      expect(Buffer.from(logo!.split(',')[1]!, 'base64').toString()).toContain('aria-label="svc"');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/favicon\.svg$/);
      // A free route shows no lock; a paid one and an agent write do.
      const lockOf = (id: string) => page.locator(`#operations-${id} .authorization__btn`).count();
      expect(await lockOf('data-getCatalog')).toBe(0);
      expect(await lockOf('data-postDataBundle')).toBe(1);
      expect(await lockOf('calibration-postCalibRecordOutcome')).toBe(1);
      await page.close();
    },
    60_000,
  );
});
