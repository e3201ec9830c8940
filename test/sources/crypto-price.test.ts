import { describe, expect, it } from 'vitest';
import { binancePairs, fromBinance } from '../../src/sources/crypto-price.js';

describe('crypto-price Binance fallback', () => {
  it('maps CoinGecko ids to USDT pairs through the entity graph and skips coins Binance does not list', () => {
    expect(binancePairs(['ethereum', 'no-such-coin', 'bitcoin'])).toEqual([
      { coin: 'ethereum', pair: 'ETHUSDT' },
      { coin: 'bitcoin', pair: 'BTCUSDT' },
    ]);
  });

  it('keeps the asked order, drops pairs missing from the answer, and names USDT as the quote (no usd field)', () => {
    const ticker = { symbol: 'BTCUSDT', lastPrice: '100.5', priceChangePercent: '-0.5', quoteVolume: '10', closeTime: 1_795_000_000_999 };
    expect(
      fromBinance(
        [
          { coin: 'ethereum', pair: 'ETHUSDT' },
          { coin: 'bitcoin', pair: 'BTCUSDT' },
        ],
        [ticker],
      ),
    ).toEqual([
      {
        coin: 'bitcoin',
        price: 100.5,
        quote: 'USDT',
        market_cap_usd: null,
        volume_24h_usdt: 10,
        change_24h_pct: -0.5,
        as_of: 1_795_000_000,
      },
    ]);
  });
});
