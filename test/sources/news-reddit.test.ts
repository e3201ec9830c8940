import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { subreddit } from '../../src/sources/news-reddit.js';
import { fromAtom, fromListing, postRows, type Post } from '../../src/sources/lib/reddit.js';
import type { Listing } from '../../src/upstream/formats/reddit-listing.js';

const entry = (id: string, title: string, author = '/u/someone') =>
  `<entry><author><name>${author}</name><uri>https://www.reddit.com/user/x</uri></author><category term="technology" label="r/technology"/><content type="html">&lt;p&gt;x&lt;/p&gt;</content><id>t3_${id}</id><link href="https://www.reddit.com/r/technology/comments/${id}/slug/" /><updated>2026-11-21T12:00:10+00:00</updated><title>${title}</title></entry>`;
const feed = (...entries: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>r/technology</title>${entries.join('')}</feed>`;

const post = (id: string, extra: Partial<Post> = {}): Post => ({
  id,
  title: id,
  subreddit: 'technology',
  author: 'a',
  score: 1,
  comments: 0,
  url: null,
  permalink: `https://www.reddit.com/${id}`,
  posted_at: 1,
  nsfw: false,
  stickied: false,
  ...extra,
});

describe('news-reddit q', () => {
  it('accepts a name with or without r/ and keys it in lower case', () => {
    expect(subreddit('Technology')).toBe('technology');
    expect(subreddit('r/AskHistorians')).toBe('askhistorians');
    expect(subreddit('/r/de_IAmA')).toBe('de_iama');
  });

  it('refuses what cannot be a subreddit name', () => {
    for (const q of ['', 'r/', 'a', 'x'.repeat(22), 'tech news', 'tech-news', '../r/all', 'r/r/tech'])
      expect(() => subreddit(q), q).toThrow(/subreddit_name/);
  });

  it('accepts every 2-21 character name of letters, digits and _', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_]{2,21}$/), (name) => subreddit(`r/${name}`) === name.toLowerCase()));
  });
});

describe('Reddit listing and Atom feed', () => {
  it('makes permalinks absolute and floors the float created_utc', () => {
    const raw: Listing = {
      data: {
        children: [
          {
            data: {
              id: 'abc',
              title: 't',
              subreddit: 's',
              author: 'a',
              score: 5,
              num_comments: 2,
              permalink: '/r/s/comments/abc/t/',
              created_utc: 1795262410.9,
              stickied: false,
              over_18: true,
            },
          },
        ],
      },
    };
    expect(fromListing(raw)[0]).toMatchObject({
      permalink: 'https://www.reddit.com/r/s/comments/abc/t/',
      posted_at: 1795262410,
      url: null,
      nsfw: true,
      comments: 2,
    });
  });

  it('reads a single-entry feed, decodes entities and strips /u/ and t3_', () => {
    expect(fromAtom(feed(entry('1p3w7qz', 'Valve&#39;s &amp; Meta&#39;s 2026')))).toEqual([
      {
        id: '1p3w7qz',
        title: "Valve's & Meta's 2026",
        subreddit: 'technology',
        author: 'someone',
        score: null,
        comments: null,
        url: null,
        permalink: 'https://www.reddit.com/r/technology/comments/1p3w7qz/slug/',
        posted_at: 1795262410,
        nsfw: null,
        stickied: null,
      },
    ]);
  });

  it('keeps numeric titles as text and reads several entries in order', () => {
    const posts = fromAtom(feed(entry('a1', '2026'), entry('b2', 'second', '/u/[deleted]')));
    expect(posts.map((p) => [p.id, p.title, p.author])).toEqual([
      ['a1', '2026', 'someone'],
      ['b2', 'second', '[deleted]'],
    ]);
  });

  it('refuses a page that is not an Atom feed and reads an empty feed as no posts', () => {
    expect(() => fromAtom('<html><body>whoa there, pardner!</body></html>')).toThrow(/other than an Atom or RSS feed/);
    expect(fromAtom(feed())).toEqual([]);
  });

  it('ranks the kept posts from 1, drops the stickied flag and needs at least one post', () => {
    const rows = postRows([post('pinned', { stickied: true }), post('a'), post('b'), post('c')], 2, (p) => !p.stickied);
    expect(rows.map((r) => [r.rank, r.id])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(rows[0]).not.toHaveProperty('stickied');
    expect(() => postRows([post('pinned', { stickied: true })], 10, (p) => !p.stickied)).toThrow(/no posts/);
  });
});
