import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startListeningApp, type TestApp } from '../helpers/app.js';
import type { ModelFakes } from '../fakes/models.js';
import { servePrices, startPanel } from './helpers.js';
import { launchChromium } from '../helpers/browser.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const DAY_MS = 86_400_000;

/** Dialogs, CSP violations, script errors: none may happen. */
function watchForTrouble(page: Page) {
  const trouble: string[] = [];
  page.on('dialog', (d) => void d.dismiss().then(() => trouble.push(`dialog: ${d.message()}`)));
  page.on(
    'console',
    (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && trouble.push(`console: ${m.text()}`),
  );
  page.on('pageerror', (e) => trouble.push(`pageerror: ${e.message}`));
  return trouble;
}

let browser: Browser;
let fakes: ModelFakes;
let live: { t: TestApp; base: string };
let bare: { t: TestApp; base: string };

beforeAll(async () => {
  const panel = await startPanel();
  fakes = panel.fakes;
  [live, bare] = await Promise.all([startListeningApp({ env: panel.env }), startListeningApp()]);
  servePrices(live.t.sim, [100, 50, 20, 1, 0.1]);
  await live.t.app.scheduler.tick();
  servePrices(live.t.sim, [110, 52, 23, 1, 0.1]);
  live.t.clock.advance(DAY_MS);
  await live.t.app.scheduler.tick();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await live?.t.close();
  await bare?.t.close();
  await fakes?.close();
});

describe('olympics scoreboard in Chromium', () => {
  it('shows the medal table and events, and updates live from the ticker', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const trouble = watchForTrouble(page);
    await page.goto(`${live.base}/olympics`);
    await expect.poll(() => page.textContent('.status')).toBe('live');
    const rows = page.locator('.medals tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    const table = (await live.t.app.inject('/api/v1/olympics/medals')).json().medal_table as { model_id: string; gold: number }[];
    expect(await page.locator('.medals .model-id').allTextContents()).toEqual(table.map((s) => s.model_id));
    expect(await rows.first().locator('td.gold').textContent()).toBe(String(table[0]!.gold));
    expect(await rows.last().locator('.model-id').textContent()).toBe('m-google'); // failed every time, still listed
    expect(await page.locator('.summary').textContent()).toContain('3 resolved live events');
    const eventCount = async () => (await live.t.app.inject('/api/v1/olympics/events?limit=20')).json().events.length as number;
    const before = await eventCount();
    expect(await page.locator('.events .event').count()).toBe(before);
    expect(await page.locator('.events .medal').count()).toBeGreaterThan(0);
    expect(await page.locator('.scoring').textContent()).toContain('Brier');
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.locator('.events').getAttribute('aria-live')).toBe('polite');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL('olympics.png', ARTIFACTS).pathname, fullPage: true });

    servePrices(live.t.sim, [120, 40, 23, 1, 0.1]);
    live.t.clock.advance(DAY_MS);
    await live.t.app.scheduler.tick(); // resolves the second day and opens the third: the page follows without reload
    const after = await eventCount();
    expect(after).toBeGreaterThan(before);
    await expect.poll(() => page.locator('.events .event').count()).toBe(after);
    await expect.poll(() => page.locator('.summary').textContent()).toContain('6 resolved live events');

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: new URL('olympics-phone.png', ARTIFACTS).pathname, fullPage: true });
    expect(trouble).toEqual([]);
    await page.close();
  });

  it('says why when no models are configured', async () => {
    const page = await browser.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${bare.base}/olympics`);
    await expect.poll(() => page.locator('.notice').isVisible()).toBe(true);
    expect(await page.locator('.notice').textContent()).toContain('No language models are configured for the panel role');
    expect(await page.locator('.medals').isVisible()).toBe(false);
    expect(await page.textContent('.status')).toBe('offline');
    await page.screenshot({ path: new URL('olympics-no-models.png', ARTIFACTS).pathname });
    expect(trouble).toEqual([]);
    await page.close();
  });
});
