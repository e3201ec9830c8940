import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BIN_COUNT,
  MIN_SAMPLES,
  addOutcome,
  aggregate,
  binEdges,
  binIndex,
  calibrate,
  chanceEce,
  curve,
  emptyAggregate,
  miscalibration,
  type BinAggregate,
} from '../../src/calib/reliability.js';

type Pair = [number, 0 | 1];

/** mulberry32: a small seeded generator, so the synthetic agents are repeatable. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An agent predicting p uniformly whose claims come true with probability truth(p). */
function syntheticAgent(n: number, seed: number, truth: (p: number) => number): Pair[] {
  const random = seeded(seed);
  return Array.from({ length: n }, () => {
    const p = random();
    return [p, random() < truth(p) ? 1 : 0];
  });
}

const probability = fc.double({ min: 0, max: 1, noNaN: true });
const history = fc.array(fc.tuple(probability, fc.constantFrom<0 | 1>(0, 1)), { minLength: 1, maxLength: 200 });

describe('bins', () => {
  it('has 11 edges, each exactly k/10, handed out as a copy', () => {
    const edges = binEdges();
    expect(edges).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    edges.forEach((edge, k) => expect(edge).toBe(k / 10));
    edges[3] = 42;
    expect(binEdges()[3]).toBe(0.3);
  });

  it('are right-closed: every edge value 0, 0.1, …, 1 falls in the bin it closes', () => {
    expect(binIndex(0)).toBe(0);
    for (let k = 1; k <= 10; k++) expect(binIndex(k / 10), `edge ${k}/10`).toBe(k - 1);
    expect(binIndex(0.7)).toBe(6);
    expect(binIndex(1)).toBe(9);
  });

  it('puts values just above an edge in the next bin', () => {
    expect([0.05, 0.1000001, 0.3, 0.7000001, 0.99, Number.MIN_VALUE].map(binIndex)).toEqual([0, 1, 2, 7, 9, 0]);
    for (let k = 1; k < 10; k++) expect(binIndex(k / 10 + 1e-12)).toBe(k);
  });

  it('rejects values outside [0, 1]', () => {
    for (const p of [-0.01, 1.01, Number.NaN, Infinity]) expect(() => binIndex(p)).toThrow(RangeError);
  });

  it('bin index is monotone in p', () => {
    fc.assert(
      fc.property(probability, probability, (a, b) => {
        expect(binIndex(Math.min(a, b))).toBeLessThanOrEqual(binIndex(Math.max(a, b)));
      }),
    );
  });

  it('every p lies inside its bin: low < p ≤ high (p = 0 in the first)', () => {
    const edges = binEdges();
    fc.assert(
      fc.property(probability, (p) => {
        const k = binIndex(p);
        expect(p).toBeLessThanOrEqual(edges[k + 1]!);
        if (p > 0) expect(p).toBeGreaterThan(edges[k]!);
      }),
    );
  });
});

describe('aggregates', () => {
  it('addOutcome folds one claim into its bin (hand-computed)', () => {
    const one = addOutcome(emptyAggregate(6), 0.7, 0);
    expect(one).toMatchObject({ bin_index: 6, count: 1, success_count: 0, sum_p: 0.7 });
    expect(one.sum_sq_err).toBeCloseTo(0.49, 15);
    const two = addOutcome(one, 0.65, 1);
    expect(two.count).toBe(2);
    expect(two.success_count).toBe(1);
    expect(two.sum_p).toBeCloseTo(1.35, 12);
    expect(two.sum_sq_err).toBeCloseTo(0.49 + 0.1225, 12);
    expect(one.count).toBe(1); // not mutated
  });

  it('addOutcome refuses a p from another bin or a non-binary outcome', () => {
    expect(() => addOutcome(emptyAggregate(7), 0.7, 1)).toThrow(RangeError);
    expect(() => addOutcome(emptyAggregate(6), 0.7, 2 as 0 | 1)).toThrow(RangeError);
  });

  it('aggregate keeps only non-empty bins, sorted', () => {
    expect(aggregate([]).length).toBe(0);
    expect(
      aggregate([
        [0.95, 1],
        [0.05, 0],
        [0.96, 0],
      ]).map((a) => [a.bin_index, a.count]),
    ).toEqual([
      [0, 1],
      [9, 2],
    ]);
  });

  it('is order independent: any permutation gives the same counts and (to rounding) the same sums', () => {
    fc.assert(
      fc.property(history, fc.integer(), (pairs, seed) => {
        const random = seeded(seed);
        const shuffled = [...pairs].sort(() => random() - 0.5);
        const [a, b] = [aggregate(pairs), aggregate(shuffled)];
        expect(b.map((x) => [x.bin_index, x.count, x.success_count])).toEqual(a.map((x) => [x.bin_index, x.count, x.success_count]));
        b.forEach((x, i) => expect(x.sum_sq_err).toBeCloseTo(a[i]!.sum_sq_err, 9));
      }),
    );
  });
});

describe('curve', () => {
  it('matches the reference case: Brier 0.254, ECE 0.42', () => {
    const c = curve(
      aggregate([
        [0.9, 1],
        [0.8, 1],
        [0.7, 0],
        [0.3, 0],
        [0.2, 1],
      ]),
    );
    expect(c.brier).toBeCloseTo(0.254, 12);
    expect(c.ece).toBeCloseTo(0.42, 12);
    expect(c.resolved).toBe(5);
    expect(c.bins).toHaveLength(BIN_COUNT);
    expect(c.bins[6]).toEqual({ low: 0.6, high: 0.7, count: 1, success_count: 0, success_rate: 0, smoothed_rate: 1 / 3, avg_p: 0.7 });
    expect(c.bins.map((b) => b.count)).toEqual([0, 1, 1, 0, 0, 0, 1, 1, 1, 0]);
  });

  it('matches a hand-computed case with several claims per bin', () => {
    // bin 0: p 0.05 → 0, 0.1 → 1 (0.1 closes bin 0); bin 1: 0.15 → 1; bin 5: 0.55 → 1, 0.6 → 0, 0.6 → 1.
    const c = curve(
      aggregate([
        [0.05, 0],
        [0.1, 1],
        [0.15, 1],
        [0.55, 1],
        [0.6, 0],
        [0.6, 1],
      ]),
    );
    // ECE = (2·|0.5 − 0.075| + 1·|1 − 0.15| + 3·|2/3 − 0.58333|) / 6 = (0.85 + 0.85 + 0.25) / 6
    expect(c.ece).toBeCloseTo(0.325, 12);
    // Brier = (0.0025 + 0.81 + 0.7225 + 0.2025 + 0.36 + 0.16) / 6
    expect(c.brier).toBeCloseTo(2.2575 / 6, 12);
    // every bin under-predicts, so the signed gap is −ECE
    expect(c.signed_gap).toBeCloseTo(-0.325, 12);
    expect(c.bins[0]).toMatchObject({ count: 2, success_count: 1, success_rate: 0.5, smoothed_rate: 0.5 });
    expect(c.bins[0]!.avg_p).toBeCloseTo(0.075, 12);
    expect(c.bins[1]).toMatchObject({ count: 1, success_rate: 1, smoothed_rate: 2 / 3, avg_p: 0.15 });
    expect(c.bins[5]).toMatchObject({ count: 3, success_count: 2, smoothed_rate: 0.6 });
    expect(c.bins[5]!.avg_p).toBeCloseTo(1.75 / 3, 12);
  });

  it('without resolved claims: ten empty bins (null rates, smoothed 0.5) and null ECE/Brier', () => {
    const c = curve([]);
    expect(c).toMatchObject({ ece: null, brier: null, signed_gap: null, resolved: 0 });
    expect(c.bins.map((b) => [b.low, b.high])).toEqual(
      binEdges()
        .slice(0, 10)
        .map((low, k) => [low, binEdges()[k + 1]]),
    );
    for (const b of c.bins) expect(b).toMatchObject({ count: 0, success_count: 0, success_rate: null, smoothed_rate: 0.5, avg_p: null });
  });

  it('takes stored aggregates in any order, with missing bins', () => {
    const stored: BinAggregate[] = [
      { bin_index: 9, count: 4, success_count: 4, sum_p: 3.8, sum_sq_err: 0.04 },
      { bin_index: 0, count: 2, success_count: 0, sum_p: 0.1, sum_sq_err: 0.01 },
    ];
    const c = curve(stored);
    expect(c.resolved).toBe(6);
    expect(c.brier).toBeCloseTo(0.05 / 6, 12);
    expect(c.ece).toBeCloseTo((4 * 0.05 + 2 * 0.05) / 6, 12);
    expect(c.bins[9]).toMatchObject({ count: 4, success_rate: 1, smoothed_rate: 5 / 6, avg_p: 0.95 });
  });

  it('agrees with ECE and Brier computed claim by claim, and keeps them in [0, 1] with |signed gap| ≤ ECE', () => {
    fc.assert(
      fc.property(history, (pairs) => {
        const c = curve(aggregate(pairs));
        const n = pairs.length;
        expect(c.brier!).toBeCloseTo(pairs.reduce((s, [p, o]) => s + (p - o) ** 2, 0) / n, 9);
        let ece = 0;
        for (let k = 0; k < BIN_COUNT; k++) {
          const inBin = pairs.filter(([p]) => binIndex(p) === k);
          if (!inBin.length) continue;
          const mean = (f: (x: Pair) => number) => inBin.reduce((s, x) => s + f(x), 0) / inBin.length;
          ece += (inBin.length / n) * Math.abs(mean(([, o]) => o) - mean(([p]) => p));
        }
        expect(c.ece!).toBeCloseTo(ece, 9);
        for (const value of [c.ece!, c.brier!]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1 + 1e-12);
        }
        expect(Math.abs(c.signed_gap!)).toBeLessThanOrEqual(c.ece! + 1e-12);
        expect(c.bins.reduce((s, b) => s + b.count, 0)).toBe(n);
      }),
    );
  });
});

describe('calibrate', () => {
  it('returns predicted_p itself, low confidence, without history in the bin', () => {
    expect(calibrate(0.75, [])).toEqual({ calibrated_p: 0.75, low_confidence: true, sample_count: 0, bin_index: 7 });
    expect(calibrate(0.75, aggregate([[0.2, 1]]))).toMatchObject({ calibrated_p: 0.75, sample_count: 0 });
  });

  it('returns the bin success rate, confident from 30 samples on', () => {
    const claims = (n: number) => aggregate(Array.from({ length: n }, (_, i): Pair => [0.72, i % 4 === 0 ? 1 : 0]));
    expect(calibrate(0.79, claims(40))).toEqual({ calibrated_p: 0.25, low_confidence: false, sample_count: 40, bin_index: 7 });
    expect(calibrate(0.8, claims(MIN_SAMPLES - 1))).toMatchObject({ low_confidence: true, sample_count: 29 });
    expect(calibrate(0.8, claims(MIN_SAMPLES))).toMatchObject({ low_confidence: false, sample_count: 30 });
  });
});

describe('miscalibration label', () => {
  it('a perfectly calibrated synthetic agent has ECE near 0 at large N and is called well calibrated', () => {
    const c = curve(aggregate(syntheticAgent(50_000, 42, (p) => p)));
    expect(c.ece!).toBeLessThan(0.01);
    expect(c.brier!).toBeCloseTo(1 / 6, 2); // E[p(1 − p)] for uniform p
    expect(miscalibration(c)).toBe('well_calibrated');
  });

  it('does not brand a perfectly calibrated agent with a few hundred claims as miscalibrated', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const c = curve(aggregate(syntheticAgent(200, seed, (p) => p)));
      expect(c.ece!).toBeGreaterThan(0.05); // chance alone: a raw ECE threshold would fail this agent
      expect(c.ece! - chanceEce(c)).toBeLessThanOrEqual(0.05);
      expect(miscalibration(c), `seed ${seed}`).toBe('well_calibrated');
    }
  });

  it('names the direction of a systematic gap, and "mixed" when there is none', () => {
    const label = (truth: (p: number) => number) => miscalibration(curve(aggregate(syntheticAgent(5_000, 9, truth))));
    expect(label((p) => Math.max(0, p - 0.2))).toBe('overconfident');
    expect(label((p) => Math.min(1, p + 0.2))).toBe('underconfident');
    expect(label((p) => 0.5 + (p - 0.5) * 0.3)).toBe('mixed'); // too extreme at both ends, no net gap
  });

  it('says insufficient_data below 30 resolved claims, however bad they look', () => {
    expect(miscalibration(curve([]))).toBe('insufficient_data');
    expect(miscalibration(curve(aggregate(Array.from({ length: 29 }, (): Pair => [0.95, 0]))))).toBe('insufficient_data');
    expect(miscalibration(curve(aggregate(Array.from({ length: 30 }, (): Pair => [0.95, 0]))))).toBe('overconfident');
  });
});
