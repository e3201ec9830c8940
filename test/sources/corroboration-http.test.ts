import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { parsePerturbations, type Perturbation } from '../../src/demo/perturb.js';
import { loadConfig } from '../../src/config.js';
import type { TestApp } from '../helpers/app.js';
import type { CorroborationBlock } from '../helpers/corroboration.js';
import { clientOf, startDemoApp } from '../demo/helpers.js';

/**
 * crypto-price corroborated through HTTP against the demo world, with SVC_DEMO_PERTURB making sources wrong: the
 * demo's own setting, parsed as at start-up, swapped in between cases (the world reads the map it was given).
 */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
/** Each case at its own instant of the world. */
const NEXT_CASE_MS = 10 * 60_000;

const perturb = new Map<string, Perturbation>();
let t: TestApp;
let asked = 0;
beforeAll(async () => {
  t = await startDemoApp(NOW, { perturb });
});
afterAll(() => t.close());
beforeEach(() => t.clock.advance(NEXT_CASE_MS));

const SOURCES = ['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit'];

interface Row {
  price: number;
  usd: number;
  corroboration: CorroborationBlock;
}

/** The preview of `bitcoin` with only `setting` perturbed, asked afresh (the answer and each source's cache forgotten). */
async function bitcoin(setting: string): Promise<Row> {
  const key = 'src:crypto-price:bitcoin';
  await Promise.all([key, ...SOURCES.map((s) => `${key}@${s}`)].map((k) => t.deps.cache.delete(k)));
  perturb.clear();
  for (const [host, p] of parsePerturbations(setting)) perturb.set(host, p);
  const query = { type: 'crypto-price', q: 'bitcoin' };
  const res = await t.app.inject({ url: '/api/data/preview', query, remoteAddress: clientOf(asked++) });
  expect(res.statusCode).toBe(200);
  return res.json().preview;
}

const verdict = (block: CorroborationBlock, source: string) => block.sources.find((s) => s.source === source)!;
const bps = (a: number, b: number) => (Math.abs(a - b) / b) * 10_000;

describe('crypto-price corroboration over HTTP (demo world)', () => {
  it('names every source asked: the USD ones agree, the USDT books are kept apart', async () => {
    const row = await bitcoin('');
    expect(row.corroboration.sources.map((s) => s.source)).toEqual(SOURCES);
    expect(row.corroboration).toMatchObject({ status: 'agreed' });
    expect(row.corroboration.quorum).toBeGreaterThanOrEqual(2);
    for (const s of ['binance', 'okx', 'bybit'])
      expect(verdict(row.corroboration, s)).toMatchObject({ quote: 'USDT', used: false, reason: 'quote_mismatch' });
    expect(row.usd).toBe(row.price);
  });

  it('one source ×100: the price moves at most 5 bps and that source is used:false, reason outlier', async () => {
    const clean = await bitcoin('');
    const perturbed = await bitcoin('kraken:x100');
    expect(bps(perturbed.price, clean.price)).toBeLessThanOrEqual(5);
    expect(verdict(perturbed.corroboration, 'kraken')).toMatchObject({ used: false, reason: 'outlier' });
    expect(perturbed.corroboration.status).toBe('agreed');
  });

  it('two of three USD sources wrong: the row still answers and says disputed', async () => {
    const row = await bitcoin('kraken:x100,coinbase-exchange:x0.01');
    expect(row.corroboration.status).toBe('disputed');
    expect(verdict(row.corroboration, 'kraken')).toMatchObject({ used: false, reason: 'outlier' });
    expect(verdict(row.corroboration, 'coinbase-exchange')).toMatchObject({ used: false, reason: 'outlier' });
  });

  it('an HTTP 500 is unavailable with the upstream error; a ten-minute-old price is stale; a EUR book labelled USD an outlier', async () => {
    const failing = await bitcoin('coinbase-exchange:500');
    expect(verdict(failing.corroboration, 'coinbase-exchange')).toEqual({
      source: 'coinbase-exchange',
      used: false,
      reason: 'unavailable',
      error: 'upstream_error',
    });
    const lagging = await bitcoin('coingecko:stale');
    expect(verdict(lagging.corroboration, 'coingecko')).toMatchObject({ used: false, reason: 'stale' });
    const mislabelled = await bitcoin('kraken:eur');
    expect(verdict(mislabelled.corroboration, 'kraken')).toMatchObject({ quote: 'USD', used: false, reason: 'outlier' });
  });
});

describe('SVC_DEMO_PERTURB', () => {
  it('is checked at start-up', () => {
    expect(loadConfig({ SVC_DEMO_PERTURB: 'kraken:x100,coingecko:stale' }).demoPerturb).toBe('kraken:x100,coingecko:stale');
    expect(() => loadConfig({ SVC_DEMO_PERTURB: 'kraken:times100' })).toThrow(/SVC_DEMO_PERTURB/);
  });
});

describe('signing at the quorum (production setting)', () => {
  const SLOW = ['binance', 'coinbase-exchange', 'okx', 'bybit'];
  const DELAY_MS = 1500;
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ signAtQuorum: true, deadlineCapMs: 4000 });
    for (const host of SLOW) app.sim.fault(host, { kind: 'delay', ms: DELAY_MS });
  });
  afterAll(() => app.close());

  const preview = async () =>
    (await app.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin' } })).json().preview as Row;

  it('answers once two USD sources agree, lists the slower ones late, and the next caller gets their answers', async () => {
    const started = Date.now();
    const first = await preview();
    expect(Date.now() - started).toBeLessThan(DELAY_MS);
    expect(first.corroboration).toMatchObject({ status: 'agreed', quorum: 2 });
    for (const host of SLOW)
      expect(verdict(first.corroboration, host)).toMatchObject({ used: false, reason: 'unavailable', error: 'late' });
    // Not cached while sources were late: a later caller is answered from each source's cache, the late ones included.
    const later = await vi.waitFor(
      async () => {
        const row = await preview();
        expect(row.corroboration.sources.filter((s) => s.error === 'late')).toEqual([]);
        return row;
      },
      { timeout: 4 * DELAY_MS, interval: 100 },
    );
    expect(verdict(later.corroboration, 'coinbase-exchange')).toMatchObject({ used: true });
    expect(app.sim.hits('kraken')).toBe(1);
  });
});
