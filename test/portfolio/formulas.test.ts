import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { allocation, hhi, maxDrawdown, returns, stdev, unrealized, valueSeries, weights } from '../../src/portfolio/formulas.js';
import { SecretBox } from '../../src/portfolio/secret-box.js';

const positiveValues = fc.array(fc.double({ min: 0.01, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 30 });

describe('insight formulas', () => {
  it('HHI lies between 1/n and 1, at 1/n exactly for equal weights', () => {
    fc.assert(
      fc.property(positiveValues, (values) => {
        const h = hhi(weights(values));
        expect(h).toBeGreaterThanOrEqual(1 / values.length - 1e-12);
        expect(h).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
    expect(hhi(weights([5, 5, 5, 5]))).toBeCloseTo(0.25, 12);
    expect(hhi(weights([7]))).toBe(1);
  });

  it('allocation shares sum to 100 (to rounding) and group by key', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ value: fc.double({ min: 0.01, max: 1e6, noNaN: true }), k: fc.constantFrom('a', 'b', 'c') }), {
          minLength: 1,
          maxLength: 20,
        }),
        (items) => {
          const shares = Object.values(allocation(items, (i) => i.k));
          expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 100)).toBeLessThanOrEqual(0.015);
        },
      ),
    );
    expect(
      allocation(
        [
          { value: 30, k: 'x' },
          { value: 10, k: 'y' },
          { value: 60, k: 'x' },
        ],
        (i) => i.k,
      ),
    ).toEqual({ x: 90, y: 10 });
  });

  it('max drawdown is 0 for a rising series, in [0, 1) otherwise, and the worst peak-to-trough fall', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.01, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 60 }), (xs) => {
        const dd = maxDrawdown(xs.map((value) => ({ value })))!;
        expect(dd).toBeGreaterThanOrEqual(0);
        expect(dd).toBeLessThan(1);
        expect(maxDrawdown([...xs].sort((a, b) => a - b).map((value) => ({ value })))).toBe(0);
      }),
    );
    expect(maxDrawdown([100, 120, 90, 130, 65].map((value) => ({ value })))).toBeCloseTo(0.5, 12);
    expect(maxDrawdown([{ value: 1 }])).toBeNull();
  });

  it('volatility of a constant growth rate is 0; returns and the value series follow their definitions', () => {
    const series = [100, 110, 121, 133.1].map((value) => ({ value }));
    expect(returns(series).map((r) => Number(r.toFixed(10)))).toEqual([0.1, 0.1, 0.1]);
    expect(stdev(returns(series))).toBeCloseTo(0, 12);
    expect(stdev([1])).toBeNull();
    expect(stdev([1, 3])).toBeCloseTo(Math.SQRT2, 12);
    const day = 86_400;
    const a = {
      quantity: 2,
      closes: [
        { t: 0, c: 10 },
        { t: day, c: 11 },
        { t: 2 * day, c: 12 },
      ],
    };
    const b = {
      quantity: 1,
      closes: [
        { t: day + 3600, c: 5 },
        { t: 2 * day + 3600, c: 6 },
      ],
    };
    expect(valueSeries([a, b], 100)).toEqual([
      { day: 1, value: 127 },
      { day: 2, value: 130 },
    ]);
  });

  it('unrealized P/L covers only positions with a cost basis', () => {
    expect(
      unrealized([
        { value: 150, cost_basis: 100 },
        { value: 50, cost_basis: null },
        { value: 80, cost_basis: 100 },
      ]),
    ).toEqual({ usd: 30, pct: 15, covered: 2 });
    expect(unrealized([{ value: 1, cost_basis: null }])).toBeNull();
  });
});

describe('SecretBox', () => {
  it('opens what it sealed for the same owner only, and after a key rotation', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const sealed = new SecretBox([oldKey]).seal('access-sandbox-123', 'alice');
    expect(sealed).not.toContain('access-sandbox');
    const rotated = new SecretBox([newKey, oldKey]);
    expect(rotated.open(sealed, 'alice')).toBe('access-sandbox-123');
    expect(rotated.stale(sealed)).toBe(true);
    expect(rotated.stale(rotated.seal('x', 'alice'))).toBe(false);
    expect(() => rotated.open(sealed, 'bob')).toThrow();
    expect(() => new SecretBox([newKey]).open(sealed, 'alice')).toThrow(/unknown format or key/);
    const tampered = sealed.replace(
      /\.([A-Za-z0-9_-])([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]+)$/,
      (_m, c: string, rest: string, tag: string) => `.${c === 'A' ? 'B' : 'A'}${rest}.${tag}`,
    );
    expect(() => rotated.open(tampered, 'alice')).toThrow();
  });
});
