import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uniqueName } from '../helpers/backends.js';

/** The sources crypto-price asks (src/sources/crypto-price.ts), by simulator host. */
const SOURCES = ['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit'];

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/** Issue 39, item 4: two instances on one Postgres and one Redis ask each source once per TTL between them. */
describe.runIf(shared)('corroboration across two instances (Postgres + Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const common = { postgres: true, redis: true, pgSchema: uniqueName('co'), redisPrefix: uniqueName('co') };
    a = await startTestApp(common);
    b = await startTestApp({ ...common, sim: a.sim, clock: a.clock });
  });
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
});
