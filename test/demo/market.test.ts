import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Market } from '../../src/demo/market.js';
import { shiftTimes } from '../../src/demo/time-shift.js';
import { releasedPeriods } from '../../src/demo/world/calendar.js';

const T0 = Date.UTC(2027, 2, 10, 12) / 1000;
const instant = fc.integer({ min: T0 - 400 * 86_400, max: T0 + 400 * 86_400 });

describe('the demo market', () => {
  it('is a function of seed, asset and time: the same on a fresh instance, another for another seed', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom('crypto:BTC', 'eq:AAPL', 'fx:EUR', 'cmd:XAU'), (t, asset) => {
        const price = new Market(3).price(asset, t);
        expect(new Market(3).price(asset, t)).toBe(price);
        expect(new Market(4).price(asset, t)).not.toBe(price);
      }),
      { numRuns: 50 },
    );
  });

  it('moves a little from second to second and stays near its level over years', () => {
    const market = new Market(3);
    fc.assert(
      fc.property(instant, (t) => {
        expect(Math.abs(market.price('crypto:BTC', t + 1) / market.price('crypto:BTC', t) - 1)).toBeLessThan(0.002);
        expect(market.price('crypto:BTC', t)).toBeGreaterThan(90_000 / 4);
        expect(market.price('crypto:BTC', t)).toBeLessThan(90_000 * 4);
        expect(Math.abs(market.price('crypto:USDT', t) - 1)).toBeLessThan(0.003);
      }),
      { numRuns: 200 },
    );
  });

  it('gives candles of every interval that agree: an hour opens with its first 5-minute candle and closes with its last', () => {
    const market = new Market(3);
    fc.assert(
      fc.property(instant, (t) => {
        const hour = Math.floor(t / 3600) * 3600;
        const candle = market.candle('crypto:ETH', hour, 3600);
        const fives = market.bars('crypto:ETH', 300, hour, hour + 3300);
        expect(fives).toHaveLength(12);
        expect(fives[0]!.o).toBe(candle.o);
        expect(fives.at(-1)!.c).toBe(candle.c);
        for (const c of [candle, ...fives]) expect(c.l <= Math.min(c.o, c.c) && c.h >= Math.max(c.o, c.c)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('cuts the open candle at now: its close is the price now', () => {
    const market = new Market(3);
    const now = T0 + 1234;
    expect(market.candle('crypto:BTC', T0, 3600, now).c).toBe(market.candle('crypto:BTC', now, 60, now).c);
    expect(market.bars('crypto:BTC', 60, T0, T0 + 7200, { nowS: now }).at(-1)!.t).toBe(now - (now % 60));
  });

  it('prices a pair as one asset in the other, and a wrapped token as its asset', () => {
    const market = new Market(3);
    expect(market.price('pair:ETH/BTC', T0)).toBeCloseTo(market.usd('ETH', T0) / market.usd('BTC', T0), 12);
    expect(market.price('crypto:WETH', T0)).toBe(market.price('crypto:ETH', T0));
    expect(market.usd('USD', T0)).toBe(1);
  });
});

describe('fixture time shift', () => {
  // Inside the decade the shift recognizes (1[78]xxxxxxxx) before and after the shift.
  const unix = fc.integer({ min: 1_750_000_000, max: 1_850_000_000 });
  const shift = fc.integer({ min: -400 * 86_400, max: 400 * 86_400 });

  it('moves Unix times and ISO date-times by the shift, keeping their format and offset, and back again', () => {
    fc.assert(
      fc.property(unix, shift, fc.constantFrom('Z', '+01:00', '-05:00'), (t, s, zone) => {
        const offsetMin = zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * 60 * Number(zone.slice(1, 3));
        const iso = new Date((t + offsetMin * 60) * 1000).toISOString().slice(0, 19) + zone;
        const text = JSON.stringify({ s: t, ms: t * 1000, iso });
        const moved = JSON.parse(shiftTimes(text, s)) as { s: number; ms: number; iso: string };
        expect(moved.s).toBe(t + s);
        expect(moved.ms).toBe((t + s) * 1000);
        expect(Date.parse(moved.iso) / 1000).toBe(t + s);
        expect(moved.iso.endsWith(zone)).toBe(true);
        expect(shiftTimes(shiftTimes(text, s), -s)).toBe(text);
      }),
    );
  });

  it('moves dates without a time, in each publisher format, by whole days', () => {
    const text = '2026-11-20 · 11/20/2026 · 20 November 2026 · November-20-2026 · Fri, 20 Nov 2026 · 20261120T101500Z';
    expect(shiftTimes(text, 3 * 86_400 + 3600)).toBe(
      '2026-11-23 · 11/23/2026 · 23 November 2026 · November-23-2026 · Mon, 23 Nov 2026 · 20261123T111500Z',
    );
    expect(shiftTimes('Fri, 20 Nov 2026 16:14:02 EST', 3600)).toBe('Fri, 20 Nov 2026 17:14:02 EST');
  });
});

describe('publishing calendars', () => {
  it('list released periods only, newest first, weekdays without weekends', () => {
    fc.assert(
      fc.property(instant, (now) => {
        const days = releasedPeriods('weekdays', 0.8 * 86_400, now, 10);
        expect(days).toHaveLength(10);
        for (const [i, d] of days.entries()) {
          expect(d.end + 0.8 * 86_400).toBeLessThanOrEqual(now);
          expect([0, 6]).not.toContain(new Date(d.start * 1000).getUTCDay());
          if (i) expect(d.start).toBeLessThan(days[i - 1]!.start);
        }
        const [month] = releasedPeriods('monthly', 13 * 86_400, now, 1);
        expect(month!.date.endsWith('-01')).toBe(true);
        expect(now - month!.end).toBeLessThan(45 * 86_400);
      }),
    );
  });
});
