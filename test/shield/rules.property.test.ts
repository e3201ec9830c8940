import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { BASE_RATE, noisyOr } from '../../src/shield/exploit.js';
import { editDistance, skeleton } from '../../src/shield/lookalike.js';
import { parseManifest } from '../../src/shield/manifest.js';
import type { Finding } from '../../src/shield/schemas.js';
import { SEVERITIES } from '../../src/shield/schemas.js';
import { auditTool } from '../../src/shield/tool-rules.js';
import { decide } from '../../src/shield/verdict.js';

const finding = fc
  .constantFrom(...SEVERITIES)
  .map((severity): Finding => ({ id: 'x', severity, title: 'x', evidence: {}, source: 'test' }));

describe('AgentShield rules (properties)', () => {
  it('an unknown check never lowers the risk nor softens the verdict, and never leaves allow with risk 0', () => {
    const order = { allow: 0, warn: 1, block: 2 };
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 8 }), fc.nat(10), (findings, unknown) => {
        const known = decide(findings, 0);
        const withUnknown = decide(findings, unknown + 1);
        expect(withUnknown.risk).toBeGreaterThanOrEqual(known.risk);
        expect(order[withUnknown.verdict]).toBeGreaterThanOrEqual(order[known.verdict]);
        expect(withUnknown.risk).toBeGreaterThan(0);
        expect(withUnknown.risk).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('the noisy-OR stays in [base rate, 1) and grows with every factor', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.99, noNaN: true }), { maxLength: 10 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (weights, extra) => {
          const p = noisyOr(weights);
          expect(p).toBeGreaterThanOrEqual(BASE_RATE - 1e-12);
          expect(p).toBeLessThan(1);
          expect(noisyOr([...weights, extra])).toBeGreaterThanOrEqual(p - 1e-12);
        },
      ),
    );
  });

  it('edit distance is symmetric, zero only for equal strings, and skeletons are idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        expect(editDistance(a, b, 3)).toBe(editDistance(b, a, 3));
        expect(editDistance(a, b, 3) === 0).toBe(a === b);
        expect(skeleton(skeleton(a))).toBe(skeleton(a));
      }),
    );
    // Regression (fast-check seed 770231525): `Ci` skeletonized to `cl`, whose skeleton is `d`.
    expect(skeleton('Ci')).toBe('d');
  });

  it('any JSON is either audited or a 400, never a crash', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (tools, paths) => {
        for (const manifest of [{ tools }, { openapi: '3.0.0', paths }, { result: { tools } }] as Record<string, unknown>[]) {
          try {
            parseManifest(manifest).tools.forEach(auditTool);
          } catch (error) {
            expect(error).toBeInstanceOf(ApiError);
          }
        }
      }),
    );
  });
});
