import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/entities/dataset.js';
import { AMBIGUITY_MARGIN, EntityResolver } from '../../src/entities/resolver.js';

const resolver = new EntityResolver(loadDataset().entities);

describe('entity resolution', () => {
  it.each([
    ['AAPL', 'svc-ent:eq.aapl', 'ticker'],
    ['aapl', 'svc-ent:eq.aapl', 'ticker'],
    ['msft', 'svc-ent:eq.msft', 'ticker'],
    ['BRK-B', 'svc-ent:eq.brk-b', 'ticker'],
    ['US0378331005', 'svc-ent:eq.aapl', 'isin'],
    ['us5949181045', 'svc-ent:eq.msft', 'isin'],
    ['037833100', 'svc-ent:eq.aapl', 'cusip'],
    ['67066G104', 'svc-ent:eq.nvda', 'cusip'],
    ['0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'svc-ent:stb.usdc', 'contract:ethereum'],
    ['0xDAC17F958D2EE523A2206206994597C13D831EC7', 'svc-ent:stb.usdt', 'contract:ethereum'],
    ['bitcoin', 'svc-ent:cr.bitcoin', 'coingecko'],
    ['BTC', 'svc-ent:cr.bitcoin', 'symbol'],
    ['eth', 'svc-ent:cr.ethereum', 'symbol'],
    ['SOLUSDT', 'svc-ent:cr.solana', 'binance'],
    ['ETH-PERP', 'svc-ent:perp.eth-usdt', 'symbol'],
    ['EURUSD', 'svc-ent:fx.eurusd', 'fx'],
    ['EUR/USD', 'svc-ent:fx.eurusd', 'fx'],
    ['^GSPC', 'svc-ent:idx.spx', 'yahoo'],
    ['svc-ent:cmd.gold', 'svc-ent:cmd.gold', 'id'],
    ['DCOILWTICO', 'svc-ent:cmd.wti', 'fred'],
  ])('%s → %s exactly (%s)', (q, id, on) => {
    const { matches } = resolver.resolve(q, 5);
    expect(matches[0]).toMatchObject({ id, confidence: 1, matched_on: on });
  });

  it.each([
    ['etherium', 'svc-ent:cr.ethereum'],
    ['aple', 'svc-ent:eq.aapl'],
    ['apple inc', 'svc-ent:eq.aapl'],
    ['microsfot', 'svc-ent:eq.msft'],
    ['coca cola', 'svc-ent:eq.ko'],
    ['solanna', 'svc-ent:cr.solana'],
  ])('%s → %s by name, with confidence below 1', (q, id) => {
    const { matches } = resolver.resolve(q, 5);
    expect(matches[0]!.id).toBe(id);
    expect(matches[0]!.confidence).toBeGreaterThan(0);
    expect(matches[0]!.confidence).toBeLessThan(1);
  });

  it.each([
    ['S&P 500', 'svc-ent:idx.spx'],
    ['euro dollar', 'svc-ent:fx.eurusd'],
    ['Brent Crude', 'svc-ent:cmd.brent'],
    ['natural  gas', 'svc-ent:cmd.natural-gas'],
    ['Dow Jones', 'svc-ent:idx.dji'],
    ['tesla', 'svc-ent:eq.tsla'],
  ])('%s → %s: a name or alias spelled exactly (case and spacing aside) is an exact match, confidence 1', (q, id) => {
    const { matches } = resolver.resolve(q, 5);
    expect(matches[0]).toMatchObject({ id, confidence: 1, matched_on: expect.stringMatching(/^(name|alias)$/) });
  });

  it('an exact name match outranks every fuzzy one by more than the ambiguity margin', () => {
    const apple = resolver.resolve('Apple Inc.', 5);
    expect(apple.matches[0]).toMatchObject({ id: 'svc-ent:eq.aapl', confidence: 1, matched_on: 'name' });
    expect(apple.ambiguous).toBe(false);
    expect(apple.matches.slice(1).every((m) => m.confidence <= 1 - AMBIGUITY_MARGIN)).toBe(true);
  });

  it('sorts by confidence and says when the top two are too close to call', () => {
    const alphabet = resolver.resolve('alphabet', 5);
    expect(alphabet.ambiguous).toBe(true);
    expect(
      alphabet.matches
        .slice(0, 2)
        .map((m) => m.id)
        .sort(),
    ).toEqual(['svc-ent:eq.goog', 'svc-ent:eq.googl']);
    const bitcoin = resolver.resolve('bitcoin', 5);
    expect(bitcoin.ambiguous).toBe(false);
    const confidences = bitcoin.matches.map((m) => m.confidence);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
  });

  it('a spot pair is the coin, not its perpetual; the perp has its own symbol', () => {
    const pair = resolver.resolve('BTCUSDT', 5);
    expect(pair.ambiguous).toBe(false);
    expect(pair.matches[0]).toMatchObject({ id: 'svc-ent:cr.bitcoin', confidence: 1, matched_on: 'binance' });
    expect(resolver.resolve('BTC-PERP', 5).matches[0]).toMatchObject({ id: 'svc-ent:perp.btc-usdt', confidence: 1 });
  });

  it('a name shared by two share classes is ambiguous', () => {
    const google = resolver.resolve('google', 5);
    expect(google.ambiguous).toBe(true);
    expect(
      google.matches
        .slice(0, 2)
        .map((m) => m.id)
        .sort(),
    ).toEqual(['svc-ent:eq.goog', 'svc-ent:eq.googl']);
  });

  it('finds nothing for gibberish', () => {
    expect(resolver.resolve('qqqzzzxxx', 5).matches).toEqual([]);
  });
});
