import { oneOf } from './lib/q.js';
import { hotFeed, hotListing, postRows, type Post } from './lib/reddit.js';
import { defineSource } from './define.js';

/** List labels → the site-wide listing: `top` is the front page logged-out readers see (r/popular). */
const LISTS = { top: 'popular', popular: 'popular', all: 'all' } as const;
type Label = keyof typeof LISTS;
const label = oneOf(Object.keys(LISTS) as Label[], '<list_label>', (s) => s.toLowerCase());
const MAX = 20;

/** Site-wide lists mix in pinned announcements and NSFW threads; neither belongs in a trending list. */
const trending = (p: Post) => !p.stickied && !p.nsfw;

/**
 * Rows: rank, id, title, subreddit, author, score, comments, url (link target), permalink, posted_at (Unix s),
 * nsfw. From the keyless Atom fallback score, comments, url and nsfw are null and NSFW cannot be filtered
 * (r/popular already leaves it out).
 */
export default defineSource<Label>({
  type: 'reddit-trending',
  categories: ['news', 'social'],
  qShape: '<list_label>',
  example: 'top',
  desc: '`<list_label>`; hottest threads across the site front page',
  parseQ: label,
  keyOf: (l) => LISTS[l],
  ttlSeconds: 300,
  deadlineMs: 6000,
  upstreams: {
    reddit: (l, ctx) => hotListing(LISTS[l], 25, ctx).then((posts) => postRows(posts, MAX, trending)),
    'reddit-rss': (l, ctx) => hotFeed(LISTS[l], ctx).then((posts) => postRows(posts, MAX, () => true)),
  },
});
