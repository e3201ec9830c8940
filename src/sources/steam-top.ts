import { oneOf } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type FetchContext, type Row } from './define.js';
import { AppDetails, Charts, SteamSpy } from '../upstream/formats/steam.js';

/** Both labels name Steam's most-played chart; `top` is the canonical one. */
export const LISTS = ['top', 'most-played'] as const;
export type List = (typeof LISTS)[number];

const MAX_GAMES = 10;

interface Game {
  appid: number;
  name: string | null;
  peak_players: number;
  last_week_rank: number | null;
}

export const toRows = (games: Game[], asOf?: number): Row[] =>
  games.slice(0, MAX_GAMES).map((g, i) => ({
    rank: i + 1,
    appid: g.appid,
    name: g.name,
    peak_players: g.peak_players,
    last_week_rank: g.last_week_rank,
    store_url: `https://store.steampowered.com/app/${g.appid}/`,
    ...(asOf ? { as_of: asOf } : {}),
  }));

/** The chart's first entries by rank (the API sends them in order, but nothing promises it). */
export function topRanks(raw: Charts): Charts['response']['ranks'] {
  const ranks = [...raw.response.ranks].sort((a, b) => a.rank - b.rank).slice(0, MAX_GAMES);
  if (ranks.length === 0) throw noData('Steam published an empty most-played chart');
  return ranks;
}

export function fromCharts(raw: Charts, names: Map<number, string>): Row[] {
  const games = topRanks(raw).map((r) => ({
    appid: r.appid,
    name: names.get(r.appid) ?? null,
    peak_players: r.peak_in_game,
    last_week_rank: r.last_week_rank ?? null,
  }));
  return toRows(games, raw.response.rollup_date);
}

export function fromSteamSpy(raw: SteamSpy): Row[] {
  const games = Object.values(raw).sort((a, b) => b.ccu - a.ccu);
  if (games.length === 0) throw noData('SteamSpy sent an empty top-100 list');
  return toRows(games.map((g) => ({ appid: g.appid, name: g.name, peak_players: g.ccu, last_week_rank: null })));
}

/**
 * The chart has ids only; names come from the store, one app per call, within half the time left so a
 * slow store cannot sink the chart. A name the store does not give stays null.
 */
async function storeNames({ upstream, deadline }: FetchContext, appids: number[]): Promise<Map<number, string>> {
  const namesBy = Date.now() + (deadline - Date.now()) / 2;
  const store = upstream('steam-store');
  const pairs = await Promise.all(
    appids.map(async (appid): Promise<[number, string][]> => {
      try {
        const query = { appids: appid, filters: 'basic' };
        const raw = await store.json<AppDetails>('/api/appdetails', AppDetails, { deadline: namesBy, query });
        const name = raw[String(appid)]?.data?.name;
        return name ? [[appid, name]] : [];
      } catch {
        return [];
      }
    }),
  );
  return new Map(pairs.flat());
}

/** Rows: rank, appid, name, peak_players (peak concurrent players of the chart's day), last_week_rank, store_url; top 10. */
export default defineSource<List>({
  type: 'steam-top',
  categories: ['gaming', 'retail'],
  qShape: '<list_label>',
  example: 'top',
  desc: '`<list_label>`; most-played games',
  parseQ: oneOf(LISTS, '<list_label>', (s) => s.toLowerCase()),
  keyOf: () => 'top',
  ttlSeconds: 3600,
  deadlineMs: 6000,
  upstreams: {
    'steam-api': async (_list, ctx) => {
      const raw = await ctx.http.json<Charts>('/ISteamChartsService/GetMostPlayedGames/v1/', Charts, { deadline: ctx.deadline });
      return fromCharts(
        raw,
        await storeNames(
          ctx,
          topRanks(raw).map((r) => r.appid),
        ),
      );
    },
    steamspy: async (_list, { http, deadline }) =>
      fromSteamSpy(await http.json<SteamSpy>('/api.php', SteamSpy, { deadline, query: { request: 'top100in2weeks' } })),
  },
});
