import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePerturbations, type Perturbation } from '../../src/demo/perturb.js';
import { registry } from '../../src/sources/registry.js';
import type { TestApp } from '../helpers/app.js';
import type { CorroborationBlock } from '../helpers/corroboration.js';
import { clientOf, startDemoApp } from '../demo/helpers.js';

/**
 * stock-quote, forex and commodity-metals corroborated through HTTP against the demo world (issue 37), each with
 * SVC_DEMO_PERTURB making one or two of its three sources wrong, as crypto-price's suite does.
 */
/** A Wednesday at 11:00 in New York: the US session is open, the day's ECB and LBMA fixings are out. */
const NOW = Date.UTC(2026, 10, 18, 16, 0, 0);
const NEXT_CASE_MS = 10 * 60_000;

type Row = Record<string, unknown> & { corroboration: CorroborationBlock };

const perturb = new Map<string, Perturbation>();
let t: TestApp;
let asked = 0;
beforeAll(async () => {
  t = await startDemoApp(NOW, { perturb });
});
afterAll(() => t.close());
beforeEach(() => t.clock.advance(NEXT_CASE_MS));

/** The preview of `q` with only `setting` perturbed, asked afresh (the answer and each source's cache forgotten). */
async function preview(type: string, q: string, setting: string): Promise<Row> {
  const key = `src:${type}:${q}`;
  const hosts = Object.keys(registry.get(type)!.upstreams);
  await Promise.all([key, ...hosts.map((h) => `${key}@${h}`)].map((k) => t.deps.cache.delete(k)));
  perturb.clear();
  for (const [host, p] of parsePerturbations(setting)) perturb.set(host, p);
  const res = await t.app.inject({ url: '/api/data/preview', query: { type, q }, remoteAddress: clientOf(asked++) });
  expect(res.statusCode).toBe(200);
  return res.json().preview;
}

const verdict = (block: CorroborationBlock, source: string) => block.sources.find((s) => s.source === source)!;
const bps = (a: number, b: number) => (Math.abs(a - b) / b) * 10_000;

/** Each type: its q, the row field the median is written to, its sources in priority order, and which to perturb. */
const TYPES = [
  { type: 'stock-quote', q: 'AAPL', field: 'price', sources: ['yahoo', 'finnhub', 'stooq'], quote: 'USD' },
  { type: 'forex', q: 'EUR:USD', field: 'rate', sources: ['frankfurter', 'open-er-api', 'yahoo'], quote: 'USD' },
  { type: 'commodity-metals', q: 'gold', field: 'price_usd_oz', sources: ['lbma', 'gold-api', 'yahoo'], quote: 'USD' },
] as const;

describe.each(TYPES)('$type corroboration over HTTP (demo world)', ({ type, q, field, sources, quote }) => {
  const [first, second, third] = sources;

  it('names every source asked, in priority order, and they agree: the value is their median', async () => {
    const row = await preview(type, q, '');
    expect(row.corroboration.sources.map((s) => s.source)).toEqual(sources);
    expect(row.corroboration).toMatchObject({ status: 'agreed', quorum: 3 });
    for (const s of row.corroboration.sources) expect(s).toMatchObject({ quote, used: true });
    const values = row.corroboration.sources.map((s) => s.value!).sort((a, b) => a - b);
    expect(row[field]).toBe(values[1]);
  });

  it('one source ×100: the value moves at most 5 bps and that source is used:false, reason outlier', async () => {
    const clean = await preview(type, q, '');
    const perturbed = await preview(type, q, `${second}:x100`);
    expect(bps(perturbed[field] as number, clean[field] as number)).toBeLessThanOrEqual(5);
    expect(verdict(perturbed.corroboration, second)).toMatchObject({ used: false, reason: 'outlier' });
    expect(perturbed.corroboration).toMatchObject({ status: 'agreed', quorum: 2 });
  });

  it('two of three wrong (×100 and ×0.01): the row still answers and says disputed', async () => {
    const row = await preview(type, q, `${first}:x100,${third}:x0.01`);
    expect(row.corroboration.status).toBe('disputed');
    expect(verdict(row.corroboration, first)).toMatchObject({ used: false, reason: 'outlier' });
    expect(verdict(row.corroboration, third)).toMatchObject({ used: false, reason: 'outlier' });
  });

  it('an HTTP 500 is unavailable with the upstream error; the other two still agree', async () => {
    const row = await preview(type, q, `${third}:500`);
    expect(verdict(row.corroboration, third)).toEqual({ source: third, used: false, reason: 'unavailable', error: 'upstream_error' });
    expect(row.corroboration).toMatchObject({ status: 'agreed', quorum: 2 });
  });

  it('a EUR price labelled USD is an outlier', async () => {
    const row = await preview(type, q, `${second}:eur`);
    expect(verdict(row.corroboration, second)).toMatchObject({ quote, used: false, reason: 'outlier' });
  });
});

describe('staleness follows each source’s schedule', () => {
  it('a stock quote ten minutes behind the others is stale', async () => {
    const row = await preview('stock-quote', 'AAPL', 'finnhub:stale');
    expect(verdict(row.corroboration, 'finnhub')).toMatchObject({ used: false, reason: 'stale' });
    expect(row.corroboration).toMatchObject({ status: 'agreed', quorum: 2 });
  });

  it('an ECB fixing hours old (ten minutes more when perturbed) is used beside the live rate: it missed no publication', async () => {
    const row = await preview('forex', 'EUR:USD', 'frankfurter:stale');
    expect(verdict(row.corroboration, 'frankfurter')).toMatchObject({ used: true });
  });
});

describe('an index is in points at every source', () => {
  it('Yahoo labels ^GSPC with its exchange’s currency (instrumentType INDEX), Stooq gives none: both are points and agree', async () => {
    const row = await preview('stock-quote', '^GSPC', '');
    expect(row.currency).toBeNull();
    for (const source of ['yahoo', 'stooq']) expect(verdict(row.corroboration, source)).toMatchObject({ quote: 'points', used: true });
    expect(row.corroboration.status).toBe('agreed');
  });
});
