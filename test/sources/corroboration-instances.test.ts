import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uniqueName } from '../helpers/backends.js';

/** The sources crypto-price asks (src/sources/crypto-price.ts), by simulator host. */
const SOURCES = ['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit'];

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/** Issue 39, item 4: two instances on one Postgres and one Redis ask each source once per TTL between them, asked in turn or at once. */
describe.runIf(shared)('corroboration across two instances (Postgres + Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const common = { postgres: true, redis: true, pgSchema: uniqueName('co'), redisPrefix: uniqueName('co') };
    a = await startTestApp(common);
    b = await startTestApp({ ...common, sim: a.sim, clock: a.clock });
    // Two instances migrating a fresh Postgres schema took over 30 s beside three other files at load 28.
  }, 60_000);
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const preview = (t: TestApp, q: string) => t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q } });
  const hitsPerSource = () => Object.fromEntries(SOURCES.map((host) => [host, a.sim.hits(host)]));

  it('fetches each source once for both instances: the second instance answers from what the first fetched', async () => {
    a.sim.resetHits();
    const first = await preview(a, 'bitcoin');
    const second = await preview(b, 'bitcoin');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().preview.usd).toBe(first.json().preview.usd);
    expect(hitsPerSource()).toEqual(Object.fromEntries(SOURCES.map((host) => [host, 1])));
  });
  it('fetches each source once when both instances are asked at the same moment: the second waits for the first’s fetch', async () => {
    a.sim.resetHits();
    // Each source answers in 150 ms: both instances are past their cache lookup before either has an answer to share.
    for (const host of SOURCES) a.sim.fault(host, { kind: 'delay', ms: 150 });
    try {
      const [first, second] = await Promise.all([preview(a, 'ethereum'), preview(b, 'ethereum')]);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(second.json().preview.corroboration).toEqual(first.json().preview.corroboration);
      expect(first.json().preview.corroboration.status).toBe('agreed');
      expect(hitsPerSource()).toEqual(Object.fromEntries(SOURCES.map((host) => [host, 1])));
    } finally {
      a.sim.clearFaults();
    }
  });
  it('fetches a source itself when the instance holding its lease never answers (it died): within the deadline', async () => {
    a.sim.resetHits();
    // A lease taken by an instance that then died: nothing will be stored under the source's key.
    const q = 'bitcoin,ethereum';
    const sourceKey = `${b.deps.sources.cacheKeyOf('crypto-price', b.deps.sources.prepare('crypto-price', q).key)}@kraken`;
    expect(await a.deps.cache.setIfAbsent(`${sourceKey}#lease`, 1, 60_000)).toBe(true);
    const res = await preview(b, q);
    expect(res.statusCode).toBe(200);
    const kraken = res.json().preview.corroboration.sources.find((s: { source: string }) => s.source === 'kraken');
    // Answered, not listed `late` or timed out: it waited half the deadline for the dead holder, then fetched.
    expect(kraken).toMatchObject({ used: true });
    expect(a.sim.hits('kraken')).toBe(1);
  });
});
