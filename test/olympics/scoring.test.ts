import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FAILED_P,
  LOG_LOSS_EPS,
  TIE_EPS,
  awardMedals,
  brier,
  logLoss,
  medalOrder,
  standing,
  table,
  type ScoredRow,
} from '../../src/olympics/scoring.js';
import { gainsPct, isTopGainer } from '../../src/calib/resolvers/top-gainer.js';
import { replayEvents } from '../../src/olympics/history.js';
import type { Candle } from '../../src/core/candles.js';

const p = fc.double({ min: 0, max: 1, noNaN: true });
const outcome = fc.constantFrom<0 | 1>(0, 1);
const RANK: Record<string, number> = { gold: 1, silver: 2, bronze: 3 };

describe('olympics scoring', () => {
  it('Brier and log loss: known values, bounds, and the failure score', () => {
    expect(brier(0.8, 1)).toBeCloseTo(0.04, 15);
    expect(brier(FAILED_P, 0)).toBe(0.25);
    expect(logLoss(FAILED_P, 1)).toBeCloseTo(Math.LN2, 15);
    expect(logLoss(0, 1)).toBeCloseTo(-Math.log(LOG_LOSS_EPS), 9);
    fc.assert(
      fc.property(p, outcome, (q, o) => {
        expect(brier(q, o)).toBeGreaterThanOrEqual(0);
        expect(brier(q, o)).toBeLessThanOrEqual(1);
        expect(brier(q, o)).toBeCloseTo(brier(1 - q, (1 - o) as 0 | 1), 12); // symmetric under relabelling
        expect(Number.isFinite(logLoss(q, o))).toBe(true);
        expect(logLoss(q, o)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('medals follow standard competition ranking: ties share a medal and skip the next ones', () => {
    expect(
      Object.fromEntries(
        awardMedals([
          { model_id: 'a', brier: 0.04 },
          { model_id: 'b', brier: 0.04 },
          { model_id: 'c', brier: 0.16 },
          { model_id: 'd', brier: 0.2 },
        ]),
      ),
    ).toEqual({
      a: 'gold',
      b: 'gold',
      c: 'bronze',
      d: null,
    });
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }), (scores) => {
        const entries = scores.map((b, i) => ({ model_id: `m${i}`, brier: b }));
        const medals = awardMedals(entries);
        const best = Math.min(...scores);
        for (const e of entries) {
          const better = scores.filter((s) => s < e.brier - TIE_EPS).length;
          expect(medals.get(e.model_id)).toBe(['gold', 'silver', 'bronze'][better] ?? null);
          if (e.brier === best) expect(medals.get(e.model_id)).toBe('gold');
        }
        // A lower Brier never gets a worse medal.
        for (const a of entries)
          for (const b of entries) {
            if (a.brier < b.brier - TIE_EPS && medals.get(b.model_id))
              expect(RANK[medals.get(a.model_id)!]).toBeLessThanOrEqual(RANK[medals.get(b.model_id)!]!);
          }
      }),
    );
  });

  const row = fc
    .record({
      model_id: fc.constantFrom('a', 'b', 'c'),
      status: fc.constantFrom<ScoredRow['status']>('answered', 'answered', 'failed', 'timed_out'),
      p,
      outcome,
      medal: fc.constantFrom<ScoredRow['medal']>('gold', 'silver', 'bronze', null),
    })
    .map((r): ScoredRow => ({ ...r, vendor: 'v', model: 'm', p: r.status === 'answered' ? r.p : null }));

  it('standings count every event, score failures at p = 0.5, and keep silent models in the table', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const standings = table([{ model_id: 'z', vendor: 'v', model: 'm' }], rows);
        expect(standings.map((s) => s.model_id).sort()).toEqual([...new Set(['z', ...rows.map((r) => r.model_id)])].sort());
        for (const s of standings) {
          const mine = rows.filter((r) => r.model_id === s.model_id);
          expect(s.answered + s.failed + s.timed_out).toBe(mine.length);
          expect(s.events).toBe(mine.length);
          if (!mine.length) expect(s).toMatchObject({ brier: null, log_loss: null, ece: null, gold: 0 });
          else expect(s.brier).toBeCloseTo(mine.reduce((sum, r) => sum + brier(r.p ?? FAILED_P, r.outcome), 0) / mine.length, 12);
          if (s.answered === 0) expect(s.ece).toBeNull();
        }
        for (let i = 1; i < standings.length; i++) expect(medalOrder(standings[i - 1]!, standings[i]!)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('a perfectly calibrated, always-right model has ECE 0 and Brier 0', () => {
    const rows: ScoredRow[] = [1, 0, 1].map((o) => ({
      model_id: 'a',
      vendor: 'v',
      model: 'm',
      status: 'answered',
      p: o,
      outcome: o as 0 | 1,
      medal: 'gold',
    }));
    expect(standing({ model_id: 'a', vendor: 'v', model: 'm' }, rows)).toMatchObject({ brier: 0, ece: 0, gold: 3, answered: 3 });
  });
});

describe('top_gainer and the candle replay', () => {
  it('the coin with the highest gain is the top gainer; ties all count', () => {
    const gains = gainsPct([100, 50, 20], [110, 55, 21]);
    expect(gains.map((g) => Number(g.toFixed(9)))).toEqual([10, 10, 5]);
    expect([0, 1, 2].map((i) => isTopGainer(gains, i))).toEqual([1, 1, 0]);
    fc.assert(
      fc.property(fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 2, maxLength: 10 }), (gs) => {
        const winners = gs.map((_, i) => isTopGainer(gs, i));
        expect(winners.some((w) => w === 1)).toBe(true);
        gs.forEach((g, i) => expect(winners[i]).toBe(g === Math.max(...gs) ? 1 : 0));
      }),
    );
  });

  it('replays one question per UTC midnight with only earlier candles shown, graded by the close 24 h later', () => {
    const start = 1_795_000_000 - (1_795_000_000 % 86_400) - 3 * 86_400;
    const candles: Candle[] = Array.from({ length: 24 * 6 }, (_, i) => ({
      t: start + i * 3600,
      o: 100,
      h: 130,
      l: 90,
      c: 100 + ((i * 7) % 23),
      v: 1,
    }));
    const events = replayEvents('BTCUSDT', candles, start, start + 6 * 86_400);
    // Not at `start` (no candles before it to show), nor at start + 6 d (no candle a day later).
    expect(events.map((e) => e.event.openedAt / 1000)).toEqual([1, 2, 3, 4, 5].map((d) => start + d * 86_400));
    for (const { event, outcome: o } of events) {
      const at = event.openedAt / 1000;
      const close = (ts: number) => candles.find((c) => c.t + 3600 === ts)!.c;
      expect(event.resolver.config).toMatchObject({ threshold: close(at), close_at: at + 86_400 });
      expect(o).toBe(close(at + 86_400) > close(at) ? 1 : 0);
      expect(event.data[0]!.rows.every((r) => (r.t as number) + 3600 <= at)).toBe(true);
      expect(event.mode).toBe('backfill');
    }
  });
});
