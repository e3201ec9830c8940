import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blend, claimProbability, consensusOf, PRIOR_STRENGTH, type WeightedVote } from '../../src/chart/consensus.js';
import { simulate, settle } from '../../src/arena/paper-trader.js';
import { candlesFromCloses, closeMs, HOUR } from '../arena/synthetic-candles.js';

const vote = (signal: WeightedVote['signal'], weight: number): WeightedVote => ({ signal, weight });

describe('consensus rules', () => {
  it('the largest total weight wins, not the most votes', () => {
    const c = consensusOf([vote('buy', 0.55), vote('buy', 0.55), vote('sell', 0.95), vote('sell', 0.9)]);
    expect(c).toMatchObject({ signal: 'sell', votes: { buy: 2, sell: 2, hold: 0 }, tie: false, models_counted: 4 });
    expect(c.share).toBeCloseTo(1.85 / 2.95, 12);
    expect(consensusOf([vote('buy', 0.6), vote('buy', 0.6), vote('sell', 0.9)]).signal).toBe('buy');
  });

  it('a tie for the top total is hold; no valid verdict is null', () => {
    expect(consensusOf([vote('buy', 0.7), vote('sell', 0.7)])).toMatchObject({ signal: 'hold', tie: true, share: 0 });
    expect(consensusOf([vote('buy', 0.6), vote('hold', 0.6), vote('sell', 0.2)])).toMatchObject({ signal: 'hold', tie: true });
    expect(consensusOf([])).toMatchObject({ signal: null, share: null, models_counted: 0, tie: false });
  });

  it('is the same for any order of the verdicts, and the winner always holds the largest total', () => {
    const votes = fc.array(
      fc.record({ signal: fc.constantFrom('buy', 'sell', 'hold' as const), weight: fc.double({ min: 0, max: 1, noNaN: true }) }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(votes, (vs) => {
        const a = consensusOf(vs);
        expect(consensusOf([...vs].reverse())).toEqual(a);
        if (a.signal && !a.tie) expect(Math.max(a.weights.buy, a.weights.sell, a.weights.hold)).toBe(a.weights[a.signal]);
        expect(a.votes.buy + a.votes.sell + a.votes.hold).toBe(vs.length);
      }),
    );
  });

  it('weights: the stated confidence with no history, the ledger rate as history grows', () => {
    expect(blend(0.7, 0.7, 0)).toBe(0.7);
    expect(blend(0.7, 1, PRIOR_STRENGTH)).toBeCloseTo(0.85, 12);
    expect(blend(0.9, 0.3, 1000)).toBeCloseTo((1000 * 0.3 + PRIOR_STRENGTH * 0.9) / (1000 + PRIOR_STRENGTH), 12);
    expect([claimProbability('buy', 0.8), claimProbability('sell', 0.8), claimProbability('hold', 0.8)]).toEqual([0.8, 1 - 0.8, 0.5]);
  });
});

describe('chart-consensus exits (arena rules)', () => {
  const open = (price: number) => ({
    entry_ts: closeMs(0),
    entry_price: price,
    predicted_p: 0.6,
    signals_lit: [],
    exit_ts: null,
    exit_price: null,
    exit_reason: null,
  });

  it('takes profit at +4% (at the open on a gap up), stops at −4%, else closes after 72 candles', () => {
    const up = settle(simulate('chart-consensus', candlesFromCloses([100, 101, 103, 104.5, 106]), HOUR, { open: open(100) })[0]!)!;
    expect(up).toMatchObject({ exit_reason: 'take_profit', exit_price: 104, exit_ts: closeMs(3), outcome: 1 });
    const gap = simulate('chart-consensus', candlesFromCloses([100, 101, 110], { 2: { o: 108, l: 107.5 } }), HOUR, { open: open(100) })[0]!;
    expect(gap).toMatchObject({ exit_reason: 'take_profit', exit_price: 108 });
    const down = settle(simulate('chart-consensus', candlesFromCloses([100, 99, 95]), HOUR, { open: open(100) })[0]!)!;
    expect(down).toMatchObject({ exit_reason: 'stop_loss', exit_price: 96, outcome: 0 });
    const flat = simulate('chart-consensus', candlesFromCloses(Array.from({ length: 80 }, (_, i) => 100 + (i % 2) * 0.5)), HOUR, {
      open: open(100),
    })[0]!;
    expect(flat).toMatchObject({ exit_reason: 'max_hold', exit_ts: closeMs(72) });
  });

  it('never opens a trade from candles', () => {
    expect(simulate('chart-consensus', candlesFromCloses(Array.from({ length: 200 }, (_, i) => 100 + 10 * Math.sin(i / 5))), HOUR)).toEqual(
      [],
    );
  });
});
