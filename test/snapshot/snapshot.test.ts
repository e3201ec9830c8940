import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS, STORE_BACKENDS, uniqueName } from '../helpers/backends.js';

describe.each(STORE_BACKENDS)('snapshot on %s', (backend) => {
  let a: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ postgres: backend === 'postgres' });
  });
  afterAll(() => a.close());

  it('records the basket each minute and serves the one at or before now − ago', async () => {
    await a.app.scheduler.tick();
    const first = (await a.app.inject('/api/v1/snapshot')).json();
    expect(first.data.taken_at).toBe(a.clock.now());
    const crypto = first.data.items.find((i: { key: string }) => i.key === 'crypto');
    expect(crypto).toMatchObject({ ok: true, type: 'crypto-price', source: 'coingecko' });
    expect(first.data.items.map((i: { key: string }) => i.key)).toEqual([
      'crypto',
      'gas',
      'fear_greed',
      'us_10y_yield',
      'eur_usd',
      'gold',
      'wti',
    ]);
    expect(first._receipt.as_of).toBe(Math.floor(a.clock.now() / 1000));

    a.clock.advance(60_000);
    await a.app.scheduler.tick();
    a.clock.advance(60_000);
    await a.app.scheduler.tick();
    const ago2 = (await a.app.inject('/api/v1/snapshot?ago=2')).json();
    expect(ago2.data.taken_at).toBe(first.data.taken_at);
    expect((await a.app.inject('/api/v1/snapshot?ago=1')).json().data.taken_at).toBe(first.data.taken_at + 60_000);
  });

  it('validates ago and says when there is no snapshot', async () => {
    expect((await a.app.inject('/api/v1/snapshot?ago=61')).json().details).toMatchObject({ field: 'ago', rule: 'maximum' });
    const none = await a.app.inject('/api/v1/snapshot?ago=60');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('no_history');
  });
});

describe.each(SHARED_STORE_BACKENDS)('snapshot with two instances on one %s database', () => {
  it('only one instance records per minute', async () => {
    const pgSchema = uniqueName('snap');
    const a = await startTestApp({ postgres: true, pgSchema });
    const b = await startTestApp({ postgres: true, pgSchema, sim: a.sim, clock: a.clock });
    for (let minute = 0; minute < 2; minute++) {
      a.clock.advance(60_000);
      await Promise.all(minute ? [b.app.scheduler.tick(), a.app.scheduler.tick()] : [a.app.scheduler.tick(), b.app.scheduler.tick()]);
      const rows = await a.deps.store.db.selectFrom('snapshots').select('taken_at').where('taken_at', '=', a.clock.now()).execute();
      expect(rows).toHaveLength(1);
    }
    await b.close();
    await a.close();
  });
});
