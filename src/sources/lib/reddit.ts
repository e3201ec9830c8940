import { parseFeed } from '../../upstream/formats/feed.js';
import { Listing } from '../../upstream/formats/reddit-listing.js';
import { noData } from '../../upstream/errors.js';
import type { FetchContext, Row } from '../define.js';
import { FORM, Grant, form, withBearer } from './bearer-token.js';
import { parseUnixSeconds } from '../../core/clock.js';

/**
 * Reddit for news-reddit and reddit-trending. Anonymous `.json` listings are blocked (403) since
 * May 2026, so the primary is app-only OAuth (`reddit-auth` buys the token, `reddit` serves the
 * listing); the keyless fallback is the Atom feed on `reddit-rss`, which has no scores or flags.
 */

const SITE = 'https://www.reddit.com';

/** One post from either upstream; null where the Atom feed does not say. */
export interface Post {
  id: string;
  title: string;
  subreddit: string | null;
  author: string | null;
  score: number | null;
  comments: number | null;
  url: string | null;
  permalink: string;
  posted_at: number;
  nsfw: boolean | null;
  stickied: boolean | null;
}

export const fromListing = (raw: Listing): Post[] =>
  raw.data.children.map(({ data: p }) => ({
    id: p.id,
    title: p.title,
    subreddit: p.subreddit,
    author: p.author,
    score: p.score,
    comments: p.num_comments,
    url: p.url ?? null,
    permalink: SITE + p.permalink,
    posted_at: Math.floor(p.created_utc),
    nsfw: p.over_18,
    stickied: p.stickied,
  }));

/** Atom entries: `id` is the fullname (`t3_…`), the author reads `/u/name`, the link is the post's page. */
export function fromAtom(text: string): Post[] {
  return parseFeed(text, 'reddit').flatMap((e) => {
    if (e.title === null || e.link === null) return [];
    return [
      {
        id: (e.id ?? '').replace(/^t3_/, ''),
        title: e.title,
        subreddit: e.category,
        author: e.author?.replace(/^\/?u\//, '') ?? null,
        score: null,
        comments: null,
        url: null,
        permalink: e.link,
        posted_at: parseUnixSeconds(e.date ?? ''),
        nsfw: null,
        stickied: null,
      },
    ];
  });
}

/** `limit` hot posts of a subreddit (or `all` / `popular`) through app-only OAuth. */
export function hotListing(sub: string, limit: number, ctx: FetchContext): Promise<Post[]> {
  const auth = ctx.upstream('reddit-auth');
  const buy = (credentials: string) =>
    auth.json<Grant>('/api/v1/access_token', Grant, {
      method: 'POST',
      deadline: ctx.deadline,
      headers: { ...FORM, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      body: form({ grant_type: 'client_credentials' }),
    });
  const listing = (token: string) =>
    ctx.http.json<Listing>(`/r/${sub}/hot`, Listing, {
      deadline: ctx.deadline,
      query: { limit, raw_json: 1 },
      headers: { authorization: `bearer ${token}` },
    });
  return withBearer(ctx, auth, buy, listing).then(fromListing);
}

/** The keyless Atom feed of the same listing (25 entries). */
export const hotFeed = (sub: string, ctx: FetchContext): Promise<Post[]> =>
  ctx.http.text(`/r/${sub}/hot/.rss`, { deadline: ctx.deadline }).then(fromAtom);

/** Rows: the first `max` posts that `keep` accepts, ranked from 1. */
export function postRows(posts: Post[], max: number, keep: (p: Post) => boolean): Row[] {
  const rows = posts
    .filter(keep)
    .slice(0, max)
    .map(({ stickied: _, ...p }, i) => ({ rank: i + 1, ...p }));
  if (rows.length === 0) throw noData('reddit listed no posts');
  return rows;
}
