import { describe, expect, it } from 'vitest';
import source, { fromChart, fromHistory, toRows, windowOf } from '../../src/sources/shipping-bdi.js';

const BDI = { index: 'BDI', name: 'Baltic Dry Index', is_bdi: true, kind: 'freight_index' as const, unit: 'index_points' as const };
const obs = (pairs: [string, number][]) => pairs.map(([date, value]) => ({ date, value }));
const series = obs([
  ['2026-11-20', 2112],
  ['2026-11-19', 2097],
  ['2026-10-21', 1900],
  ['2026-10-20', 1880],
  ['2026-01-02', 1100],
  ['2025-12-31', 1050],
]);

describe('shipping-bdi', () => {
  it('accepts the period labels in any case', () => {
    expect(source.parseQ('YTD')).toBe('ytd');
    expect(() => source.parseQ('2w')).toThrow(/one of: latest, 1w/);
  });

  it('windows: latest = last two closes, 1m = 30 days back, ytd = since 1 January of the latest year', () => {
    expect(windowOf('latest', series).map((o) => o.date)).toEqual(['2026-11-20', '2026-11-19']);
    expect(windowOf('1m', series).map((o) => o.date)).toEqual(['2026-11-20', '2026-11-19', '2026-10-21']);
    expect(windowOf('ytd', series).at(-1)!.date).toBe('2026-01-02');
    expect(windowOf('1y', series).at(-1)!.date).toBe('2025-12-31');
  });

  it('sorts newest first and measures change from the oldest close in the window', () => {
    const [row] = toRows(BDI, 'latest', [...series].reverse());
    expect(row).toMatchObject({ date: '2026-11-20', close: 2112, change: 15, change_pct: 0.72, high: 2112, low: 2097, as_of: 1795132800 });
    const [single] = toRows(BDI, 'latest', obs([['2026-11-20', 2112]]));
    expect(single).toMatchObject({ change: 0, change_pct: 0, series: [{ date: '2026-11-20', close: 2112 }] });
    expect(() => toRows(BDI, '1w', [])).toThrow(/no BDI closes/);
  });

  it('drops empty closes from both upstreams and keeps the UTC day of Yahoo bars', () => {
    expect(
      fromHistory({
        data: [
          { Date: '2026-11-19T00:00:00', Close: 2097 },
          { Date: '2026-11-20T00:00:00', Close: null },
          { Date: '2026-11-21T00:00:00', Close: 0 },
        ],
      }),
    ).toEqual(obs([['2026-11-19', 2097]]));
    const chart = {
      chart: {
        result: [
          {
            meta: { symbol: 'BDRY' },
            timestamp: [1795185000, 1795271400],
            indicators: { quote: [{ open: [], high: [], low: [], close: [9.8700001, null], volume: [] }] },
          },
        ],
      },
    };
    expect(fromChart(chart)).toEqual(obs([['2026-11-20', 9.87]]));
    expect(fromChart({ chart: { result: null } })).toEqual([]);
  });
});
