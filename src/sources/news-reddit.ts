import { invalidQ } from '../core/errors.js';
import { whyNot } from './lib/q.js';
import { hotFeed, hotListing, postRows, type Post } from './lib/reddit.js';
import { defineSource } from './define.js';

const SUBREDDIT = /^[A-Za-z0-9_]{2,21}$/;
const TOP = 10;
/** Ask for a few more than 10: pinned posts head the listing and are dropped. */
const ASK = 15;

/** A subreddit name, with or without `r/`; names are case-insensitive, so the key is lower case. */
export function subreddit(q: string): string {
  const name = q.replace(/^\/?r\//i, '');
  if (!SUBREDDIT.test(name)) {
    throw invalidQ('<subreddit_name> (2-21 letters, digits or _; an r/ prefix is fine)', 'technology', whyNot(q, 'a subreddit name'));
  }
  return name.toLowerCase();
}

/** Pinned posts head every hot listing; they are not what is hot. */
const notPinned = (p: Post) => !p.stickied;

/**
 * Rows: rank, id, title, subreddit, author, score, comments, url (link target), permalink, posted_at (Unix s),
 * nsfw. From the keyless Atom fallback score, comments, url and nsfw are null (the feed has none) and pinned
 * posts cannot be told apart.
 */
export default defineSource<string>({
  type: 'news-reddit',
  categories: ['news', 'social'],
  qShape: '<subreddit_name>',
  example: 'technology',
  desc: '`<subreddit_name>`; top 10 hot posts',
  parseQ: subreddit,
  keyOf: (name) => name,
  ttlSeconds: 300,
  deadlineMs: 6000,
  upstreams: {
    reddit: (sub, ctx) => hotListing(sub, ASK, ctx).then((posts) => postRows(posts, TOP, notPinned)),
    'reddit-rss': (sub, ctx) => hotFeed(sub, ctx).then((posts) => postRows(posts, TOP, () => true)),
  },
});
