import { describe, expect, it } from 'vitest';
import { assetOf, curatedData, fromEmissions, toRows } from '../../src/sources/token-unlock.js';

describe('token-unlock', () => {
  it('counts cliff allocations only and accepts string timestamps', () => {
    const unlocks = fromEmissions({
      metadata: {
        unlockEvents: [
          { timestamp: '1800000000', cliffAllocations: [{ recipient: 'Team', category: 'insiders', amount: 10 }, { recipient: 'Team', category: 'insiders', amount: 5 }] },
          { timestamp: 1800100000, cliffAllocations: [] },
          { timestamp: 1800200000 },
        ],
      },
    });
    expect(unlocks).toEqual([{ timestamp: 1800000000, amount: 15, recipients: ['Team'], categories: ['insiders'] }]);
  });

  it('keeps upcoming unlocks only, soonest first', () => {
    const asset = assetOf('arb');
    const rows = toRows(asset, [{ timestamp: 30, amount: 1, recipients: [], categories: [] }, { timestamp: 20, amount: 2, recipients: [], categories: [] }, { timestamp: 5, amount: 3, recipients: [], categories: [] }], 10, 100);
    expect(rows.map((r) => r.unlock_at)).toEqual([20, 30]);
    expect(rows[0]!.pct_of_max_supply).toBe(2);
  });

  it('ships a data file whose curated unlocks are sorted, positive and dated after its as_of', () => {
    const data = curatedData();
    for (const entry of data.entries) {
      for (const u of entry.unlocks) expect(u.amount).toBeGreaterThan(0);
      expect(entry.unlocks.map((u) => u.timestamp)).toEqual([...entry.unlocks.map((u) => u.timestamp)].sort((a, b) => a - b));
    }
    expect(() => assetOf('DOGE')).toThrow(/one of: ARB/);
  });
});
