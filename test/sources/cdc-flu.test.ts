import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseRegion, recentEpiweeks, toRows } from '../../src/sources/cdc-flu.js';
import { epiweekOf, epiweekStart } from '../../src/sources/lib/mmwr-week.js';

const at = (date: string) => Date.parse(`${date}T12:00:00Z`);
const week = (epiweek: number, wili: number, release_date: string | null = '2026-11-20') => ({
  release_date,
  region: 'nat',
  issue: 202646,
  epiweek,
  lag: 202646 - epiweek,
  num_ili: 100,
  num_patients: 4000,
  num_providers: 30,
  wili,
  ili: 2.5,
});

describe('cdc-flu region', () => {
  it('maps national aliases and any case to Delphi codes', () => {
    expect(['nat', 'NAT', 'national', 'US', 'usa'].map(parseRegion)).toEqual(['nat', 'nat', 'nat', 'nat', 'nat']);
    expect(['HHS10', 'cen9', 'CA', 'dc', 'pr', 'jfk'].map(parseRegion)).toEqual(['hhs10', 'cen9', 'ca', 'dc', 'pr', 'jfk']);
  });

  it('accepts exactly hhs1-10 and cen1-9', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), (n) => {
        expect(throws(() => parseRegion(`hhs${n}`))).toBe(n < 1 || n > 10);
        expect(throws(() => parseRegion(`cen${n}`))).toBe(n < 1 || n > 9);
      }),
    );
  });

  it('refuses unknown regions with the expected shape', () => {
    for (const q of ['', 'xx', 'hhs0', 'hhs 1', 'nat,ca', 'ord']) expect(() => parseRegion(q), q).toThrow(/region_label/);
  });
});

function throws(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

describe('MMWR weeks', () => {
  it('numbers weeks across year ends as CDC does', () => {
    expect(epiweekOf(at('2021-01-02'))).toBe(202053);
    expect(epiweekOf(at('2021-01-03'))).toBe(202101);
    expect(epiweekOf(at('2024-12-29'))).toBe(202501);
    expect(epiweekOf(at('2026-01-03'))).toBe(202553);
    expect(epiweekOf(at('2026-11-22'))).toBe(202647);
  });

  it('starts every week on the Sunday at or before the instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1998, 0, 1), max: Date.UTC(2040, 0, 1) }), (ms) => {
        const start = epiweekStart(epiweekOf(ms)) * 1000;
        expect(new Date(start).getUTCDay()).toBe(0);
        expect(ms - start).toBeGreaterThanOrEqual(0);
        expect(ms - start).toBeLessThan(7 * 86_400_000);
      }),
    );
  });

  it('asks for the last eight weeks, across a year end too', () => {
    expect(recentEpiweeks(at('2026-11-22'))).toBe('202639-202647');
    expect(recentEpiweeks(at('2027-01-12'))).toBe('202646-202702');
  });
});

describe('cdc-flu rows', () => {
  it('reports the newest week whatever the order, with the week before', () => {
    const [row] = toRows({ result: 1, message: 'success', epidata: [week(202645, 2.7), week(202643, 2.1), week(202644, 2.4)] }, 'nat');
    expect(row).toMatchObject({
      epiweek: 202645,
      wili_pct: 2.7,
      wili_prev_week_pct: 2.4,
      lag_weeks: 1,
      week_start_at: Date.UTC(2026, 10, 8) / 1000,
      as_of: Date.UTC(2026, 10, 20) / 1000,
    });
  });

  it('leaves the previous week and as_of out when the upstream has none', () => {
    const [row] = toRows({ result: 1, message: 'success', epidata: [week(202645, 2.7, null)] }, 'nat');
    expect(row!.wili_prev_week_pct).toBeNull();
    expect(row).not.toHaveProperty('as_of');
  });

  it('turns "no results" into no_data and a refused request into a bad response', () => {
    expect(() => toRows({ result: -2, message: 'no results' }, 'nat')).toThrow(expect.objectContaining({ reason: 'no_data' }));
    expect(() => toRows({ result: -1, message: 'rate limit exceeded' }, 'nat')).toThrow(
      expect.objectContaining({ reason: 'upstream_bad_response' }),
    );
  });
});
