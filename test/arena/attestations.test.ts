import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { ATTESTATION_FORMULA, attestationId, attestationRef } from '../../src/arena/attestations.js';

describe('attestation ids', () => {
  it('match SHA-256 computed outside Node', () => {
    // printf '%s' 'rsi2_mean_reversion|BTC|1700000000000|enter' | sha256sum | cut -c1-24   (and python3 hashlib agrees)
    expect(attestationId('rsi2_mean_reversion', 'BTC', 1_700_000_000_000, 'enter')).toBe('4b17314205dda2e64752fd79');
    expect(attestationId('rsi2_mean_reversion', 'BTC', 1_700_000_000_000, 'exit')).toBe('25a86372078d503ec76363d1');
    // full digest 49e6a7c6992c61aba6c77e5eea4b213d8e2b66b180e971e69220aa2e4a8fec28
    expect(attestationId('trend_following', 'SOL', 1_731_456_000_000, 'enter')).toBe('49e6a7c6992c61aba6c77e5e');
  });

  it('are the first 24 hex characters of SHA-256 over <strategy>|<asset>|<entry_ts>|enter or |exit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('rsi14_oversold', 'bollinger_bounce'),
        fc.constantFrom('BTC', 'ETH', 'SOL'),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.constantFrom<'enter' | 'exit'>('enter', 'exit'),
        (s, a, ts, event) => {
          const id = attestationId(s, a, ts, event);
          expect(id).toMatch(/^[0-9a-f]{24}$/);
          expect(id).toBe(createHash('sha256').update(`${s}|${a}|${ts}|${event}`).digest('hex').slice(0, 24));
        },
      ),
    );
    expect(attestationId('rsi14_oversold', 'BTC', 1, 'enter')).not.toBe(attestationId('rsi14_oversold', 'BTC', 1, 'exit'));
  });

  it('are cited as arena-att:<id>, and the published formula says so', () => {
    expect(attestationRef('4b17314205dda2e64752fd79')).toBe('arena-att:4b17314205dda2e64752fd79');
    expect(ATTESTATION_FORMULA).toContain('first 24 hex characters of SHA-256("<strategy>|<asset>|<entry_ts>|enter")');
    expect(ATTESTATION_FORMULA).toContain('Unix ms');
  });
});
