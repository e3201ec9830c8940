import { describe, expect, it } from 'vitest';
import { lbmaObservations } from '../../src/sources/commodity-metals.js';

describe('commodity-metals LBMA file', () => {
  it('keeps USD fixes from the last 45 days, newest first, skipping days without a USD fix', () => {
    const raw = [
      { d: '1968-04-01', v: [37.7, 15.7, null] },
      { d: '2026-11-18', v: [null, 3100, 3500] },
      { d: '2026-11-19', v: [4120.6, 3127.3, 3540.1] },
      { d: '2026-11-20', v: [4130, 3130, 3550] },
    ];
    expect(lbmaObservations(raw)).toEqual([
      { date: '2026-11-20', value: 4130 },
      { date: '2026-11-19', value: 4120.6 },
    ]);
  });
});
