import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { corroborate, median, type CorroborationRule, type Observation } from '../../src/sources/corroboration.js';

const RULE: CorroborationRule = { quorum: 2, outlierBps: 50, staleAfterS: 120, quote: 'USD' };
const AT = 1_795_916_000;
const usd = (source: string, value: number, as_of = AT): Observation => ({ source, value, quote: 'USD', as_of });

describe('corroborate', () => {
  it('names the ×100 source an outlier and prices at the median of the other two', () => {
    const result = corroborate([usd('coingecko', 104231.5), usd('kraken', 10423150), usd('coinbase', 104229.9)], RULE)!;
    expect(result.price).toBeCloseTo(104230.7, 6);
    expect(result.corroboration).toMatchObject({ status: 'agreed', quorum: 2, spread_bps: 0.15 });
    expect(result.corroboration.sources[1]).toEqual({
      source: 'kraken',
      value: 10423150,
      quote: 'USD',
      as_of: AT,
      used: false,
      reason: 'outlier',
    });
  });

  it('is disputed when two of three are wrong in different ways', () => {
    const result = corroborate([usd('coingecko', 100), usd('kraken', 10_000), usd('coinbase', 1)], RULE)!;
    expect(result.corroboration).toMatchObject({ status: 'disputed', quorum: 1 });
    expect(result.price).toBe(100);
  });

  it('keeps USDT books apart, drops a lagging source as stale and lists failures with their reason', () => {
    const result = corroborate(
      [
        usd('coingecko', 100),
        usd('coinbase', 100.1),
        usd('kraken', 99, AT - 600),
        { source: 'binance', value: 100.2, quote: 'USDT', as_of: AT },
        { source: 'okx', missing: 'unavailable', error: 'upstream_error' },
        { source: 'bybit', missing: 'not_listed' },
      ],
      RULE,
    )!;
    expect(result.quote).toBe('USD');
    expect(result.corroboration.sources.map((s) => [s.source, s.used, s.reason, s.error])).toEqual([
      ['coingecko', true, undefined, undefined],
      ['coinbase', true, undefined, undefined],
      ['kraken', false, 'stale', undefined],
      ['binance', false, 'quote_mismatch', undefined],
      ['okx', false, 'unavailable', 'upstream_error'],
      ['bybit', false, 'not_listed', undefined],
    ]);
  });

  it('prices in USDT when no source answered in USD, and says single_source for one fresh value', () => {
    const result = corroborate(
      [
        { source: 'binance', value: 5, quote: 'USDT', as_of: AT },
        { source: 'coingecko', missing: 'not_listed' },
      ],
      RULE,
    )!;
    expect(result).toMatchObject({ price: 5, quote: 'USDT', corroboration: { status: 'single_source', quorum: 1, spread_bps: 0 } });
  });

  it('holds a daily fixing to its own cap: a day-old fixing is used, one that missed its publication is stale', () => {
    const DAY = 86_400;
    const rule: CorroborationRule = { ...RULE, staleAfterS: 300, staleAfterSBySource: { ecb: 5 * DAY } };
    const dayOld = corroborate([usd('ecb', 1.0844, AT - DAY), usd('yahoo', 1.0847), usd('er', 1.0851, AT - 400)], rule)!;
    expect(dayOld.corroboration.sources.map((s) => s.reason)).toEqual([undefined, undefined, 'stale']);
    const missed = corroborate([usd('ecb', 1.0844, AT - 6 * DAY), usd('yahoo', 1.0847)], rule)!;
    expect(missed.corroboration.sources[0]).toMatchObject({ used: false, reason: 'stale' });
  });

  it('without a quote in the rule, prices in the quote most sources answered in (a listing currency)', () => {
    const rule: CorroborationRule = { quorum: 2, outlierBps: 50, staleAfterS: 300 };
    const gbp = (source: string, value: number): Observation => ({ source, value, quote: 'GBP', as_of: AT });
    const result = corroborate([gbp('yahoo', 2.31), usd('finnhub', 2.93), gbp('stooq', 2.312)], rule)!;
    expect(result).toMatchObject({ price: 2.311, quote: 'GBP', corroboration: { status: 'agreed', quorum: 2 } });
    expect(result.corroboration.sources[1]).toMatchObject({ used: false, reason: 'quote_mismatch' });
  });

  it('has nothing to say when no source priced the item', () => {
    expect(corroborate([{ source: 'kraken', missing: 'not_listed' }], RULE)).toBeUndefined();
  });
});

const price = fc.double({ min: 1e-6, max: 1e9, noNaN: true });
const arbitrary = fc.oneof(
  price,
  fc.constantFrom(1e-12, 1e15),
  price.map((p) => p * 100),
);

describe('corroborate (properties)', () => {
  it('with one of three sources arbitrary, the price stays between the honest two and so moves at most the threshold', () => {
    fc.assert(
      fc.property(price, fc.double({ min: -25, max: 25, noNaN: true }), arbitrary, fc.nat(2), (honest, bps, wild, at) => {
        const other = honest * (1 + bps / 10_000);
        const observations = [usd('a', honest), usd('b', other)];
        observations.splice(at, 0, usd('x', wild));
        const result = corroborate(observations, RULE)!;
        const honestMedian = median([honest, other]);
        // Within the honest two (up to the 15 significant digits a median of two is rounded to).
        expect(result.price).toBeGreaterThanOrEqual(Math.min(honest, other) * (1 - 1e-14));
        expect(result.price).toBeLessThanOrEqual(Math.max(honest, other) * (1 + 1e-14));
        expect((Math.abs(result.price - honestMedian) / honestMedian) * 10_000).toBeLessThanOrEqual(RULE.outlierBps);
        expect(result.corroboration.status).toBe('agreed');
      }),
    );
  });

  it('is disputed exactly when fewer than the quorum lie within the threshold of the median of the fresh values', () => {
    const values = fc.array(fc.oneof(price, fc.constant(100), fc.constant(100.1)), { minLength: 2, maxLength: 6 });
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 4 }), (xs, quorum) => {
        const result = corroborate(
          xs.map((x, i) => usd(`s${i}`, x)),
          { ...RULE, quorum },
        )!;
        const center = median(xs);
        const agreeing = xs.filter((x) => (Math.abs(x - center) / center) * 10_000 <= RULE.outlierBps).length;
        expect(result.corroboration.status === 'disputed').toBe(agreeing < quorum);
        expect(result.corroboration.quorum).toBe(agreeing);
      }),
    );
  });

  it('does not depend on the order the answers arrived in', () => {
    const observation = fc.oneof(
      fc.record({ value: price, quote: fc.constantFrom('USD', 'USDT'), as_of: fc.integer({ min: AT - 300, max: AT }) }),
      fc.constant({ missing: 'not_listed' as const }),
      fc.constant({ missing: 'unavailable' as const, error: 'upstream_timeout' }),
    );
    fc.assert(
      fc.property(
        fc.array(observation, { minLength: 1, maxLength: 6 }).chain((list) => {
          const named = list.map((o, i) => ({ source: `s${i}`, ...o }) as Observation);
          return fc.tuple(fc.constant(named), fc.shuffledSubarray(named, { minLength: named.length, maxLength: named.length }));
        }),
        ([arrived, reordered]) => {
          const a = corroborate(arrived, RULE);
          const b = corroborate(reordered, RULE);
          const bySource = (r: typeof a) =>
            r && {
              ...r,
              corroboration: { ...r.corroboration, sources: [...r.corroboration.sources].sort((x, y) => x.source.localeCompare(y.source)) },
            };
          expect(bySource(b)).toEqual(bySource(a));
        },
      ),
    );
  });
});
