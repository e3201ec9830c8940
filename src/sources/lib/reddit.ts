import { parseFeed, type FeedEntry } from '../../upstream/formats/feed.js';
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

// Atom names the post by its fullname (`t3_…`) and the author as `/u/name`. RSS 2.0, which reddit served before 2016,
// has neither: its guid is the permalink (`/r/<sub>/comments/<id>/<slug>/`) and the submitter is only in the
// description's HTML (`submitted by <a href="…/user/<name>">`); the category is there only on multi-subreddit feeds.
const PERMALINK = /\/r\/([^/]+)\/comments\/([a-z0-9]+)\//i;
const SUBMITTER = /submitted by\s*<a href="[^"]*\/user\/([^"/]+)/;

const postId = (e: FeedEntry): string | null =>
  e.id?.startsWith('t3_') ? e.id.slice(3) : (PERMALINK.exec(e.id ?? e.link ?? '')?.[2] ?? null);
const authorOf = (e: FeedEntry): string | null => e.author?.replace(/^\/?u\//, '') ?? SUBMITTER.exec(e.summary ?? '')?.[1] ?? null;

/** Entries of the Atom feed (or of the RSS 2.0 feed reddit served before 2016), without scores or flags. */
export function fromAtom(text: string): Post[] {
  return parseFeed(text, 'reddit').flatMap((e) => {
    const id = postId(e);
    if (id === null || e.title === null || e.link === null) return [];
    return [
      {
        id,
        title: e.title,
        subreddit: e.category ?? PERMALINK.exec(e.link)?.[1] ?? null,
        author: authorOf(e),
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
