import { describe, expect, it } from 'vitest';
import { fromEspn, fromSportsDb, parseLeague, stateOf } from '../../src/sources/sports-scores.js';

const competitor = (homeAway: string, name: string, score?: string) => ({ homeAway, score, team: { displayName: name } });
const event = (
  id: string,
  date: string,
  state: string,
  extra: { period?: number; displayClock?: string; shortDetail?: string } = {},
  scores: [string?, string?] = ['0', '0'],
) => ({
  id,
  date,
  name: `Away ${id} at Home ${id}`,
  status: {
    period: extra.period ?? 0,
    displayClock: extra.displayClock ?? '0:00',
    type: { state, shortDetail: extra.shortDetail ?? state },
  },
  competitions: [{ competitors: [competitor('home', `Home ${id}`, scores[0]), competitor('away', `Away ${id}`, scores[1])] }],
});
const tsdb = (
  idEvent: string,
  strTimestamp: string | null,
  strStatus: string | null,
  home: string | null = null,
  away: string | null = null,
) => ({
  idEvent,
  strEvent: `H${idEvent} vs A${idEvent}`,
  strTimestamp,
  strHomeTeam: `H${idEvent}`,
  strAwayTeam: `A${idEvent}`,
  intHomeScore: home,
  intAwayScore: away,
  strStatus,
});

describe('sports-scores q', () => {
  it('takes a documented <sport>/<league>, case-insensitively', () => {
    expect(parseLeague('Basketball/NBA')).toBe('basketball/nba');
    expect(parseLeague('soccer/eng.1')).toBe('soccer/eng.1');
  });

  it('refuses anything else and lists what is allowed', () => {
    for (const q of ['', 'nba', 'basketball/xyz', 'basketball/nba/extra']) {
      expect(() => parseLeague(q)).toThrowError(
        expect.objectContaining({
          code: 'invalid_q',
          details: expect.objectContaining({ allowed: expect.arrayContaining(['football/nfl', 'hockey/nhl']) }),
        }),
      );
    }
  });
});

describe('sports-scores ESPN', () => {
  it('orders games by start, nulls scores before tip-off and keeps live period and clock', () => {
    const rows = fromEspn({
      events: [
        event('3', '2026-11-22T20:00Z', 'pre', { shortDetail: '11/22 - 3:00 PM EST' }),
        event('1', '2026-11-22T00:30Z', 'in', { period: 3, displayClock: '4:12', shortDetail: '4:12 - 3rd' }, ['81', '77']),
      ],
    });
    expect(rows).toEqual([
      {
        event_id: '1',
        start_at: Date.UTC(2026, 10, 22, 0, 30) / 1000,
        name: 'Away 1 at Home 1',
        home_team: 'Home 1',
        away_team: 'Away 1',
        home_score: 81,
        away_score: 77,
        state: 'in',
        detail: '4:12 - 3rd',
        period: 3,
        clock: '4:12',
      },
      {
        event_id: '3',
        start_at: Date.UTC(2026, 10, 22, 20) / 1000,
        name: 'Away 3 at Home 3',
        home_team: 'Home 3',
        away_team: 'Away 3',
        home_score: null,
        away_score: null,
        state: 'pre',
        detail: '11/22 - 3:00 PM EST',
        period: null,
        clock: null,
      },
    ]);
  });

  it('treats an empty scoreboard as no data', () => {
    expect(() => fromEspn({ events: [] })).toThrowError(expect.objectContaining({ reason: 'no_data' }));
  });
});

describe('sports-scores TheSportsDB', () => {
  it('maps status codes to pre / in / post', () => {
    expect([null, 'NS', 'Q2', 'HT', 'FT', 'AOT', 'Match Finished', 'PST'].map(stateOf)).toEqual([
      'pre',
      'pre',
      'in',
      'in',
      'post',
      'post',
      'post',
      'in',
    ]);
  });

  it('reads zone-less timestamps as UTC, honours offsets and skips events without a time', () => {
    const rows = fromSportsDb({
      events: [
        tsdb('2', '2026-11-22T20:00:00+00:00', 'NS', '0', '0'),
        tsdb('1', '2026-11-22T00:30:00', 'FT', '112', '108'),
        tsdb('3', null, 'NS'),
      ],
    });
    expect(rows.map((r) => [r.event_id, r.start_at, r.home_score, r.away_score, r.state])).toEqual([
      ['1', Date.UTC(2026, 10, 22, 0, 30) / 1000, 112, 108, 'post'],
      ['2', Date.UTC(2026, 10, 22, 20) / 1000, null, null, 'pre'],
    ]);
  });

  it('treats `events: null` (no games that day) as no data', () => {
    expect(() => fromSportsDb({ events: null })).toThrowError(expect.objectContaining({ reason: 'no_data' }));
  });
});
