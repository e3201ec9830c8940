import { invalidQ } from '../core/errors.js';
import { whyNot } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { clientCredentials, clientCredentialsGrant, withBearer } from './lib/bearer-token.js';
import { defineSource, type FetchContext, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { Games, Streams } from '../upstream/formats/twitch-helix.js';

export type TwitchList = { kind: 'top' } | { kind: 'language'; language: string } | { kind: 'game'; game: string };

const SHAPE = '<list_label>: top (or all), a 2-letter stream language such as en, or game:<category name>';
const MAX_STREAMS = 20;
const MAX_GAME_NAME = 100;
type Headers = Record<string, string>;

export function parseList(q: string): TwitchList {
  const label = q.trim();
  const lower = label.toLowerCase();
  if (lower === 'top' || lower === 'all') return { kind: 'top' };
  if (/^[a-z]{2}$/.test(lower) || lower === 'other') return { kind: 'language', language: lower };
  const game = /^game:(.*)$/i.exec(label)?.[1]!.trim().replace(/\s+/g, ' ');
  if (game && game.length <= MAX_GAME_NAME && !/\p{Cc}/u.test(game)) return { kind: 'game', game };
  throw invalidQ(SHAPE, 'top', whyNot(label, 'a list label'));
}

/** Canonical q text (parseable again): category names stay as typed because Helix matches them exactly. */
export const listKey = (list: TwitchList): string =>
  list.kind === 'top' ? 'top' : list.kind === 'language' ? list.language : `game:${list.game}`;

/** Most viewers first; a channel that moved between pages is kept once. Thumbnails get a concrete 320×180 size. */
export function toRows(raw: Streams): Row[] {
  const seen = new Set<string>();
  const streams = raw.data.filter((s) => !seen.has(s.user_id) && seen.add(s.user_id)).sort((a, b) => b.viewer_count - a.viewer_count);
  if (streams.length === 0) throw noData('no live stream matches this list');
  return streams.slice(0, MAX_STREAMS).map((s, i) => ({
    rank: i + 1,
    user_login: s.user_login,
    user_name: s.user_name,
    url: `https://www.twitch.tv/${s.user_login}`,
    title: s.title,
    game_name: s.game_name,
    viewer_count: s.viewer_count,
    language: s.language,
    started_at: parseUnixSeconds(s.started_at),
    is_mature: s.is_mature ?? null,
    thumbnail_url: s.thumbnail_url.replace('{width}', '320').replace('{height}', '180'),
  }));
}

/** Helix wants the app's Client-Id beside an app access token bought with the client credentials. */
function withHelixHeaders<T>(ctx: FetchContext, use: (headers: Headers) => Promise<T>): Promise<T> {
  const auth = ctx.upstream('twitch-auth');
  const buy = clientCredentialsGrant(auth, '/oauth2/token', ctx.deadline);
  const clientId = clientCredentials(ctx.config.upstreams['twitch-auth'].key ?? '').client_id;
  return withBearer(ctx, auth, buy, (token) => use({ 'client-id': clientId, authorization: `Bearer ${token}` }));
}

async function streamFilter(list: TwitchList, headers: Headers, { http, deadline }: FetchContext): Promise<Record<string, string>> {
  if (list.kind === 'top') return {};
  if (list.kind === 'language') return { language: list.language };
  const games = await http.json<Games>('/helix/games', Games, { deadline, headers, query: { name: list.game } });
  const game = games.data[0];
  if (!game) throw noData(`Twitch has no category named "${list.game}"`);
  return { game_id: game.id };
}

/**
 * Rows: rank, user_login, user_name, url, title, game_name, viewer_count, language, started_at (Unix s), is_mature,
 * thumbnail_url; live streams by current viewers (up to 20).
 */
export default defineSource<TwitchList>({
  type: 'twitch-top',
  categories: ['gaming', 'streaming', 'social'],
  qShape: '<list_label>',
  example: 'top',
  desc: '`<list_label>`; top-watched streaming channels',
  parseQ: parseList,
  keyOf: listKey,
  ttlSeconds: 120,
  deadlineMs: 6000,
  upstreams: {
    twitch: (list, ctx) =>
      withHelixHeaders(ctx, async (headers) => {
        const filter = await streamFilter(list, headers, ctx);
        const query = { first: MAX_STREAMS, ...filter };
        return toRows(await ctx.http.json<Streams>('/helix/streams', Streams, { deadline: ctx.deadline, headers, query }));
      }),
  },
});
