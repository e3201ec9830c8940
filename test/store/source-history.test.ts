import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { SourceHistoryRepo } from '../../src/store/repos/source-history.js';
import { STORE_BACKENDS, openStore } from '../helpers/backends.js';

describe.each(STORE_BACKENDS)('source history on %s', (backend) => {
  let store: Store;
  let repo: SourceHistoryRepo;
  beforeAll(async () => {
    store = await openStore(backend);
    repo = new SourceHistoryRepo(store.db);
  });
  afterAll(() => store.close());

  const entry = (fetched_at: number, rows_hash: string) => ({
    type: 'weather',
    q: '1,2',
    as_of: Math.floor(fetched_at / 1000),
    fetched_at,
    source: 'open-meteo',
    rows_hash,
    rows_json: `[{"h":"${rows_hash}"}]`,
  });

  it('applies migrations and answers ping', async () => {
    expect(store.engine).toBe(backend);
    expect(await store.ping()).toBe(true);
  });

  it('stores entries recorded together in one batch, each awaited until written, duplicates ignored', async () => {
    const together = Array.from({ length: 600 }, (_, i) => ({ ...entry(5_000_000 + i, `b${i}`), q: 'batch' }));
    await Promise.all([...together, together[0]!].map((e) => repo.record(e)));
    for (const i of [0, 499, 500, 599]) expect((await repo.at('weather', 'batch', 5_000_000 + i))?.rows_hash).toBe(`b${i}`);
    expect(await repo.pruneBefore(5_000_000 + 600)).toBeGreaterThanOrEqual(600);
  });

  it('returns the value current at an instant, by hash, and prunes', async () => {
    await repo.record(entry(1_000_000, 'h1'));
    await repo.record(entry(2_000_000, 'h2'));
    await repo.record(entry(2_000_000, 'h2')); // duplicate fetch instant is ignored, not an error
    expect((await repo.at('weather', '1,2', 1_500_000))?.rows_hash).toBe('h1');
    expect((await repo.at('weather', '1,2', 2_000_000))?.rows_hash).toBe('h2');
    expect(await repo.at('weather', '1,2', 999_999)).toBeUndefined();
    expect(await repo.at('weather', '9,9', 2_000_000)).toBeUndefined();
    expect((await repo.byHash('weather', '1,2', 'h1'))?.fetched_at).toBe(1_000_000);
    expect(typeof (await repo.byHash('weather', '1,2', 'h1'))?.fetched_at).toBe('number');
    expect(await repo.pruneBefore(1_500_000)).toBe(1);
    expect(await repo.byHash('weather', '1,2', 'h1')).toBeUndefined();
  });
});
