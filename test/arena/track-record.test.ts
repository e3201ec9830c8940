import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TradeRow } from '../../src/store/repos/arena.js';
import type { TradeMode } from '../../src/store/schema.js';
import { attestationId } from '../../src/arena/attestations.js';
import { simulate } from '../../src/arena/paper-trader.js';
import { downsample, trackRecord } from '../../src/arena/track-record.js';
import { HOUR, tradeRow, wavyCandles } from './synthetic-candles.js';

const links = {
  baseUrl: 'https://svc.example',
  cardUrl: 'https://svc.example/api/v1/calib/agent_card?agent_id=arena%3Arsi14_oversold%3ABTC',
};
const H = HOUR * 1000;

/** A closed trade entered at hour `n` and held 3 hours, with the given pnl in percent. */
function row(n: number, pnl: number | null, claim = `svc-claim:c${n}`, mode: TradeMode = 'live'): TradeRow {
  const entry_price = 100;
  return {
    strategy: 'rsi14_oversold',
    asset: 'BTC',
    entry_ts: n * H,
    entry_price,
    predicted_p: 0.55,
    signals_lit_json: '["rsi2_oversold","rsi14_oversold"]',
    claim_id: claim,
    exit_ts: pnl === null ? null : n * H + 3 * H,
    exit_price: pnl === null ? null : entry_price * (1 + pnl / 100),
    exit_reason: pnl === null ? null : pnl > 0 ? 'rsi14_target' : 'stop_loss',
    pnl_pct: pnl,
    mode,
  };
}

describe('track record, by hand', () => {
  // pnl +5, −3, −1, 0 (given out of order, plus one open trade): running sums 5, 2, 1, 1; peak 5; drawdown 4.
  const rows = [row(30, -1), row(10, 5), row(50, null), row(40, 0), row(20, -3)];
  const record = trackRecord('rsi14_oversold', 'BTC', rows, links, 1234);

  it('adds pnl in percent and measures peak and drawdown in percentage points', () => {
    expect(record).toMatchObject({
      agent_id: 'arena:rsi14_oversold:BTC',
      strategy: 'rsi14_oversold',
      asset: 'BTC',
      mode: 'all',
      live_trade_count: 4,
      backfill_trade_count: 0,
      total_pnl_pct: 1,
      trade_count: 4,
      win_count: 1,
      loss_count: 3,
      win_rate: 0.25,
      peak_pnl_pct: 5,
      current_drawdown: 4,
      calibration_card_url: links.cardUrl,
      ts: 1234,
    });
    expect(record.attestation_id_formula).toContain('SHA-256');
    expect(record.verifiable_via).toContain('https://svc.example/api/v1/arena/attestation/<id>');
  });

  it('lists the chain newest first with trade numbers, running sums, attestations and links', () => {
    expect(record.chain.map((c) => [c.trade_n, c.pnl_pct, c.cumulative_pnl_pct, c.outcome])).toEqual([
      [4, 0, 1, 0],
      [3, -1, 1, 0],
      [2, -3, 2, 0],
      [1, 5, 5, 1],
    ]);
    const first = record.chain.at(-1)!;
    expect(first).toEqual({
      trade_n: 1,
      mode: 'live',
      claim_id: 'svc-claim:c10',
      entry_attestation: `arena-att:${attestationId('rsi14_oversold', 'BTC', 10 * H, 'enter')}`,
      entry_ts: 10 * H,
      exit_ts: 13 * H,
      entry_price: 100,
      exit_price: 105,
      predicted_p: 0.55,
      signals_lit: ['rsi2_oversold', 'rsi14_oversold'],
      duration_s: 3 * HOUR,
      pnl_pct: 5,
      outcome: 1,
      exit_reason: 'rsi14_target',
      outcome_attestation_url: `https://svc.example/api/v1/arena/attestation/${attestationId('rsi14_oversold', 'BTC', 10 * H, 'exit')}`,
      calibration_card_url: links.cardUrl,
      cumulative_pnl_pct: 5,
    });
  });

  it('plots [exit_ts, cumulative] per closed trade', () => {
    expect(record.cumulative_pnl_curve).toEqual([
      [13 * H, 5],
      [23 * H, 2],
      [33 * H, 1],
      [43 * H, 1],
    ]);
  });

  it('keeps the 20 newest trades in the chain and at most 50 curve points ending at the total', () => {
    const many = trackRecord(
      'rsi14_oversold',
      'BTC',
      Array.from({ length: 120 }, (_, i) => row(i * 5, i % 3 === 0 ? -1 : 1)),
      links,
      0,
    );
    expect(many.chain.map((c) => c.trade_n)).toEqual(Array.from({ length: 20 }, (_, i) => 120 - i));
    expect(many.cumulative_pnl_curve).toHaveLength(50);
    expect(many.cumulative_pnl_curve[0]).toEqual([3 * H, -1]);
    expect(many.cumulative_pnl_curve.at(-1)).toEqual([119 * 5 * H + 3 * H, many.total_pnl_pct]);
    expect(many.total_pnl_pct).toBe(80 - 40);
  });

  it('is all zeros with no closed trades', () => {
    expect(trackRecord('trend_following', 'SOL', [row(1, null)], links, 0)).toMatchObject({
      total_pnl_pct: 0,
      trade_count: 0,
      win_count: 0,
      loss_count: 0,
      win_rate: 0,
      peak_pnl_pct: 0,
      current_drawdown: 0,
      chain: [],
      cumulative_pnl_curve: [],
    });
  });
});

describe('track record by mode', () => {
  // Replayed history +4 and −2, then live −1 and +3 (plus an open live trade).
  const rows = [row(10, 4, undefined, 'backfill'), row(20, -2, undefined, 'backfill'), row(30, -1), row(40, 3), row(50, null)];

  it('counts both modes and computes the headline figures over the selected trades only', () => {
    const counts = { live_trade_count: 2, backfill_trade_count: 2 };
    expect(trackRecord('rsi14_oversold', 'BTC', rows, links, 0, 'all')).toMatchObject({
      mode: 'all',
      ...counts,
      total_pnl_pct: 4,
      trade_count: 4,
      win_count: 2,
      peak_pnl_pct: 4,
      current_drawdown: 0,
    });
    const live = trackRecord('rsi14_oversold', 'BTC', rows, links, 0, 'live');
    expect(live).toMatchObject({
      mode: 'live',
      ...counts,
      total_pnl_pct: 2,
      trade_count: 2,
      win_count: 1,
      loss_count: 1,
      win_rate: 0.5,
      peak_pnl_pct: 2,
      current_drawdown: 0,
    });
    expect(live.chain.map((c) => [c.trade_n, c.mode, c.cumulative_pnl_pct])).toEqual([
      [2, 'live', 2],
      [1, 'live', -1],
    ]);
    expect(live.cumulative_pnl_curve).toEqual([
      [33 * H, -1],
      [43 * H, 2],
    ]);
    const backfill = trackRecord('rsi14_oversold', 'BTC', rows, links, 0, 'backfill');
    expect(backfill).toMatchObject({ mode: 'backfill', ...counts, total_pnl_pct: 2, trade_count: 2, peak_pnl_pct: 4, current_drawdown: 2 });
    expect(backfill.chain.every((c) => c.mode === 'backfill')).toBe(true);
  });
});

describe('track record invariants', () => {
  const pnls = fc.array(fc.double({ min: -20, max: 20, noNaN: true }), { maxLength: 150 });

  it('wins + losses = trades, outcome follows pnl, the curve is the running sum, drawdown = peak − total ≥ 0', () => {
    fc.assert(
      fc.property(pnls, (values) => {
        const record = trackRecord(
          'rsi14_oversold',
          'BTC',
          values.map((pnl, i) => row(i * 10, pnl)),
          links,
          0,
        );
        expect(record.win_count + record.loss_count).toBe(record.trade_count);
        expect(record.win_count).toBe(values.filter((p) => p > 0).length);
        let sum = 0;
        const sums = values.map((p) => (sum += p));
        expect(record.total_pnl_pct).toBe(sums.at(-1) ?? 0);
        for (const entry of record.chain) {
          expect(entry.outcome).toBe(entry.pnl_pct > 0 ? 1 : 0);
          expect(entry.cumulative_pnl_pct).toBe(sums[entry.trade_n - 1]);
        }
        const curve = values.map((_, i) => [i * 10 * H + 3 * H, sums[i]]);
        expect(record.cumulative_pnl_curve).toEqual(downsample(curve, 50));
        expect(record.peak_pnl_pct).toBe(Math.max(0, ...sums));
        expect(record.current_drawdown).toBeGreaterThanOrEqual(0);
        expect(record.current_drawdown).toBe(record.peak_pnl_pct - record.total_pnl_pct);
      }),
    );
  });

  it('holds for simulated trades too', () => {
    const trades = simulate('rsi14_oversold', wavyCandles(2000, 3), HOUR).filter((t) => t.exit_ts !== null);
    const rows = trades.map((t) => tradeRow('rsi14_oversold', t, 'backfill'));
    const record = trackRecord('rsi14_oversold', 'BTC', rows, links, 1);
    expect(record.trade_count).toBe(rows.length);
    expect(record.win_count + record.loss_count).toBe(rows.length);
    expect(record.chain).toHaveLength(Math.min(20, rows.length));
    expect(record.chain[0]!.trade_n).toBe(rows.length);
    expect(record.cumulative_pnl_curve.at(-1)![1]).toBe(record.total_pnl_pct);
    expect(record.total_pnl_pct).toBeCloseTo(
      rows.reduce((a, r) => a + r.pnl_pct!, 0),
      9,
    );
  });
});

describe('downsample', () => {
  it('keeps at most max points, evenly spaced, the first and the last', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 300 }), fc.integer({ min: 2, max: 60 }), (xs, max) => {
        const indices = downsample(
          xs.map((_, i) => i),
          max,
        );
        expect(indices).toHaveLength(Math.min(max, xs.length));
        expect(indices[0]).toBe(0);
        expect(indices.at(-1)).toBe(xs.length - 1);
        const gaps = indices.slice(1).map((x, i) => x - indices[i]!);
        if (gaps.length) expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('handles max of 1 and 0, and short series unchanged', () => {
    expect(downsample([1, 2, 3], 1)).toEqual([3]);
    expect(downsample([1, 2, 3], 0)).toEqual([]);
    expect(downsample([1, 2, 3], 50)).toEqual([1, 2, 3]);
  });
});
