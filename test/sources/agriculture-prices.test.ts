import { describe, expect, it } from 'vitest';
import { fromYahoo } from '../../src/sources/agriculture-prices.js';

describe('agriculture-prices futures proxy', () => {
  it('converts cents per bushel to USD per metric ton (corn: 56 lb bushels)', () => {
    const raw = {
      chart: {
        result: [
          {
            meta: { symbol: 'ZC=F' },
            timestamp: [1795190400],
            indicators: { quote: [{ open: [null], high: [null], low: [null], close: [450], volume: [null] }] },
          },
        ],
      },
    };
    expect(fromYahoo('corn', raw)[0]).toMatchObject({ price_usd_mt: 177.16, series_id: 'ZC=F' });
  });
});
