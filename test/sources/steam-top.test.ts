import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import source, { fromCharts, fromSteamSpy } from '../../src/sources/steam-top.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const spy = (appid: number, ccu: number) => ({ appid, name: `Game ${appid}`, ccu });

describe('steam-top', () => {
  it('takes top and most-played as the same list', () => {
    expect(source.keyOf!(source.parseQ('MOST-PLAYED'))).toBe('top');
    expect(() => source.parseQ('trending')).toThrow(/one of: top, most-played/);
  });

  it('orders the chart by rank, keeps 10, and leaves unknown names and ranks null', () => {
    const ranks = Array.from({ length: 12 }, (_, i) => ({ rank: 12 - i, appid: 100 + i, peak_in_game: 1000 * (i + 1) }));
    const rows = fromCharts({ response: { rollup_date: 1795305600, ranks } }, new Map([[111, 'Top Game']]));
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({
      rank: 1,
      appid: 111,
      name: 'Top Game',
      peak_players: 12000,
      last_week_rank: null,
      store_url: 'https://store.steampowered.com/app/111/',
      as_of: 1795305600,
    });
    expect(rows[1]).toMatchObject({ appid: 110, name: null });
    expect(() => fromCharts({ response: { rollup_date: 1, ranks: [] } }, new Map())).toThrow(/empty most-played chart/);
  });

  it('ranks SteamSpy by yesterday’s peak players, since its object keys are ordered by appid', () => {
    const rows = fromSteamSpy({ '10': spy(10, 5), '20': spy(20, 50), '30': spy(30, 20) });
    expect(rows.map((r) => [r.rank, r.appid, r.peak_players])).toEqual([
      [1, 20, 50],
      [2, 30, 20],
      [3, 10, 5],
    ]);
    expect(() => fromSteamSpy({})).toThrow(/empty top-100/);
  });
});

describe('steam-top through the runner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('still answers from the chart when the store gives no names', async () => {
    t.sim.fault('steam-store', { kind: 'status', status: 500 });
    const result = await t.deps.sources.run('steam-top', 'top', { maxAgeS: 0 });
    t.sim.clearFaults();
    expect(result).toMatchObject({ ok: true, source: 'steam-api' });
    expect(result.ok && result.rows.map((r) => [r.appid, r.name])).toEqual([
      [730, null],
      [570, null],
      [578080, null],
      [2767030, null],
      [1172470, null],
    ]);
  });
});
