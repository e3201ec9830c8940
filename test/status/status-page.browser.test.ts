import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { StatusReport } from '../../src/status/service.js';
import type { CorroborationStatus } from '../../src/status/corroboration.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

/** Every source is waited for (tests sign with all of them): on a loaded machine a 1.5 s cap would list some `late`. */
const SLOW_MACHINE_DEADLINE_MS = 4000;
const QUERIES = [
  ['crypto-price', 'bitcoin'],
  ['stock-quote', 'AAPL'],
  ['forex', 'EUR:USD'],
  ['commodity-metals', 'gold'],
] as const;

/**
 * The /status page shows what /api/v1/status says of each corroborated type: its rule, the sources answering here (each
 * with its state and why not) and the outlook, rendered in Chromium from the API's JSON.
 */
let t: TestApp;
let browser: Browser;
let origin: string;
beforeAll(async () => {
  t = await startTestApp({ deadlineCapMs: SLOW_MACHINE_DEADLINE_MS });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.sim.fault('okx', { kind: 'status', status: 500 });
  t.sim.fault('bybit', { kind: 'status', status: 451 });
  for (const [type, q] of QUERIES) await t.app.inject({ url: '/api/data/preview', query: { type, q, max_age: '0' } });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Each type's rule in effect (src/sources/<type>.ts), as the page words it. */
const RULES_SHOWN: Record<string, string> = {
  'crypto-price': '2 sources within 50 bps in USD, stale after 2 min',
  'stock-quote': '2 sources within 50 bps in the row’s quote, stale after 5 min',
  forex: '2 sources within 100 bps in the row’s quote, stale after 50 h',
  'commodity-metals': '2 sources within 200 bps in the row’s quote, stale after 50 h',
};

/** What a reader sees in each row of the page's corroboration table. */
interface ShownRow {
  type: string;
  rule: string;
  count: string;
  sources: string[];
  outlook: string;
  last: string;
}

describe('the /status page: corroborated prices', () => {
  it('shows, per corroborated type, the rule, the sources answering with their states, and the outlook, as the API says', async () => {
    const report = (await t.app.inject('/api/v1/status')).json<StatusReport>();
    const corroborated = report.types.filter((type) => type.corroboration);
    expect(corroborated.map((type) => type.type).sort()).toEqual(QUERIES.map(([type]) => type).sort());

    const page = await browser.newPage();
    await page.goto(`${origin}/status`);
    await page.locator('table.corroboration tbody tr').first().waitFor();
    const shown = await page.locator('table.corroboration tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const text = (selector: string) => row.querySelector(selector)!.textContent!.trim();
        const sources = [...row.querySelectorAll('ul.sources li')].map((li) => li.textContent!.trim());
        return {
          type: text('td.name'),
          rule: text('td.rule'),
          count: text('p.count'),
          sources,
          outlook: text('td.outlook'),
          last: text('td.last'),
        };
      }),
    );
    await page.close();

    const expected = corroborated.map(({ type, corroboration }): ShownRow => {
      const c: CorroborationStatus = corroboration!;
      const quote = c.rule.quote ?? 'the row’s quote';
      return {
        type,
        rule: RULES_SHOWN[type]!,
        count: `${c.answering} of ${c.sources.length} (${c.answering_in_quote} in ${quote})`,
        sources: c.sources.map((s) => [s.source, s.state.replace('_', ' '), s.reason].filter(Boolean).join(' ')),
        outlook: { corroborated: 'corroborated', below_quorum: 'below quorum', unknown: 'not known yet' }[c.outlook],
        last: c.last_status?.replace('_', ' ') ?? '–',
      };
    });
    expect(shown).toEqual(expected);
    // The faults are on the page: an erroring and a region-blocked crypto source, the rest answering.
    const crypto = shown.find((row) => row.type === 'crypto-price')!;
    expect(crypto.sources).toEqual([
      'coingecko answering',
      'binance answering',
      'kraken answering',
      'coinbase-exchange answering',
      'okx erroring answered HTTP 500',
      'bybit region blocked refuses requests from this region (HTTP 451)',
    ]);
    expect(crypto).toMatchObject({ count: '4 of 6 (3 in USD)', outlook: 'corroborated', last: 'agreed' });
  }, 60_000);
});
