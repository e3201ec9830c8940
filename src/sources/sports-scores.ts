import { noData } from '../upstream/errors.js';
import { oneOf } from './lib/q.js';
import { defineSource, type FetchContext, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { EventsDay, Scoreboard } from '../upstream/formats/scoreboards.js';

/** ESPN `<sport>/<league>` paths we serve, with TheSportsDB's league id for the fallback. */
const LEAGUES = {
  'football/nfl': '4391',
  'football/college-football': '4479',
  'basketball/nba': '4387',
  'basketball/wnba': '4516',
  'basketball/mens-college-basketball': '4607',
  'baseball/mlb': '4424',
  'hockey/nhl': '4380',
  'soccer/eng.1': '4328',
  'soccer/esp.1': '4335',
  'soccer/ger.1': '4331',
  'soccer/ita.1': '4332',
  'soccer/fra.1': '4334',
  'soccer/usa.1': '4346',
  'soccer/uefa.champions': '4480',
} as const;
export type League = keyof typeof LEAGUES;

export const parseLeague = oneOf(Object.keys(LEAGUES) as League[], '<sport>/<league>', (s) => s.toLowerCase());

const score = (s: string | null | undefined) => (s != null && /^\d+$/.test(s) ? Number(s) : null);
const byStart = (rows: Row[]) => {
  if (rows.length === 0) throw noData('no game on this scoreboard');
  const byId = (a: Row, b: Row) => String(a.event_id).localeCompare(String(b.event_id));
  return rows.sort((a, b) => (a.start_at as number) - (b.start_at as number) || byId(a, b));
};

/** ESPN: `date` is ISO UTC without seconds; scores are strings and mean nothing before kick-off. */
export function fromEspn(raw: Scoreboard): Row[] {
  return byStart(
    raw.events.map((e) => {
      const side = (where: string) => e.competitions[0]?.competitors.find((c) => c.homeAway === where);
      const [home, away] = [side('home'), side('away')];
      const started = e.status.type.state !== 'pre';
      return {
        event_id: e.id,
        start_at: parseUnixSeconds(e.date),
        name: e.name,
        home_team: home?.team.displayName ?? null,
        away_team: away?.team.displayName ?? null,
        home_score: started ? score(home?.score) : null,
        away_score: started ? score(away?.score) : null,
        state: e.status.type.state,
        detail: e.status.type.shortDetail ?? e.status.type.detail ?? null,
        period: started ? (e.status.period ?? null) : null,
        clock: started ? (e.status.displayClock ?? null) : null,
      };
    }),
  );
}

/** TheSportsDB status codes: NS not started; FT/AOT/AET/PEN finished (plus "Match Finished"); the rest in play or off. */
export function stateOf(status: string | null | undefined): string {
  if (!status || status === 'NS' || status === 'Not Started') return 'pre';
  return /^(FT|AOT|AET|PEN|Match Finished)$/.test(status) ? 'post' : 'in';
}

export function fromSportsDb(raw: EventsDay): Row[] {
  return byStart(
    (raw.events ?? []).flatMap((e) => {
      if (!e.strTimestamp) return [];
      // TheSportsDB writes UTC timestamps without a zone.
      const start = Date.parse(/Z|[+-]\d\d:\d\d$/.test(e.strTimestamp) ? e.strTimestamp : `${e.strTimestamp}Z`);
      if (Number.isNaN(start)) return [];
      const state = stateOf(e.strStatus);
      return [
        {
          event_id: e.idEvent,
          start_at: Math.floor(start / 1000),
          name: e.strEvent,
          home_team: e.strHomeTeam,
          away_team: e.strAwayTeam,
          home_score: state === 'pre' ? null : score(e.intHomeScore),
          away_score: state === 'pre' ? null : score(e.intAwayScore),
          state,
          detail: e.strStatus ?? null,
          period: null,
          clock: null,
        },
      ];
    }),
  );
}

/** Today's (UTC) games of the league, through the documented free v1 key (5 events per league and day). */
async function sportsDb(league: League, { http, deadline, clock }: FetchContext): Promise<Row[]> {
  const day = new Date(clock.now()).toISOString().slice(0, 10);
  const query = { d: day, l: LEAGUES[league] };
  return fromSportsDb(await http.json<EventsDay>('/api/v1/json/123/eventsday.php', EventsDay, { deadline, query }));
}

/**
 * Rows: event_id, start_at (Unix s), name, home_team, away_team, home_score, away_score (null before the start),
 * state (pre | in | post), detail, period, clock (ESPN only); ESPN's current scoreboard, earliest game first.
 */
export default defineSource<League>({
  type: 'sports-scores',
  categories: ['sports'],
  qShape: '<sport>/<league>',
  example: 'basketball/nba',
  desc: '`<sport>/<league>`; scoreboard',
  parseQ: parseLeague,
  keyOf: (league) => league,
  ttlSeconds: 60,
  deadlineMs: 5000,
  upstreams: {
    espn: async (league, { http, deadline }) =>
      fromEspn(await http.json<Scoreboard>(`/apis/site/v2/sports/${league}/scoreboard`, Scoreboard, { deadline })),
    thesportsdb: sportsDb,
  },
});
