import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { subreddit } from '../../src/sources/news-reddit.js';
import { fromAtom, fromListing, postRows, type Post } from '../../src/sources/lib/reddit.js';
import type { Listing } from '../../src/upstream/formats/reddit-listing.js';

const entry = (id: string, title: string, author = '/u/someone') =>
  `<entry><author><name>${author}</name><uri>https://www.reddit.com/user/x</uri></author><category term="technology" label="r/technology"/><content type="html">&lt;p&gt;x&lt;/p&gt;</content><id>t3_${id}</id><link href="https://www.reddit.com/r/technology/comments/${id}/slug/" /><updated>2026-11-21T12:00:10+00:00</updated><title>${title}</title></entry>`;
const feed = (...entries: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>r/technology</title>${entries.join('')}</feed>`;

// The shape of reddit's RSS 2.0 templates (reddit-archive/reddit r2/templates/base.xml and link.xml, 2013-2015): the
// guid is the permalink, the pubDate is RFC 822, the description is escaped HTML naming the submitter, and a category
// appears only on feeds that mix subreddits (the second item, as on /r/all).
const RSS2 = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>technology</title>
    <link>https://www.reddit.com/r/technology/</link>
    <description>Subreddit dedicated to the news and discussions about the creation and use of technology.</description>
    <image><url>https://b.thumbs.redditmedia.com/header.png</url><title>technology</title><link>https://www.reddit.com/r/technology/</link></image>
    <atom:link rel="self" href="https://www.reddit.com/r/technology/.rss" type="application/rss+xml" />
    <item>
      <title>Tor Project says FBI paid university to uncover users</title>
      <link>https://www.reddit.com/r/technology/comments/3sqb1z/tor_project_says_fbi_paid_university/</link>
      <guid isPermaLink="true">https://www.reddit.com/r/technology/comments/3sqb1z/tor_project_says_fbi_paid_university/</guid>
      <pubDate>Fri, 13 Nov 2015 16:02:31 +0000</pubDate>
      <description>submitted by &lt;a href=&quot;http://www.reddit.com/user/maxwellhill&quot;&gt; maxwellhill &lt;/a&gt; &lt;br/&gt; &lt;a href=&quot;http://www.bbc.com/news/technology-34811284&quot;&gt;[link]&lt;/a&gt; &lt;a href="https://www.reddit.com/r/technology/comments/3sqb1z/tor_project_says_fbi_paid_university/"&gt;[1204 comments]&lt;/a&gt;</description>
    </item>
    <item>
      <title>Paris attacks: what we know</title>
      <category>worldnews</category>
      <link>https://www.reddit.com/r/worldnews/comments/3sr7kq/paris_attacks_what_we_know/</link>
      <guid isPermaLink="true">https://www.reddit.com/r/worldnews/comments/3sr7kq/paris_attacks_what_we_know/</guid>
      <pubDate>Fri, 13 Nov 2015 22:41:05 +0000</pubDate>
      <description>submitted by &lt;a href=&quot;http://www.reddit.com/user/[deleted]&quot;&gt; [deleted] &lt;/a&gt; to &lt;a href=&quot;http://www.reddit.com/r/worldnews/&quot;&gt; worldnews&lt;/a&gt; &lt;br/&gt; &lt;a href=&quot;http://www.reddit.com/r/worldnews/comments/3sr7kq/paris_attacks_what_we_know/&quot;&gt;[link]&lt;/a&gt; &lt;a href="https://www.reddit.com/r/worldnews/comments/3sr7kq/paris_attacks_what_we_know/"&gt;[310 comments]&lt;/a&gt;</description>
    </item>
  </channel>
</rss>`;

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

  it('reads the RSS 2.0 feed reddit served before 2016: id from the permalink, author from "submitted by"', () => {
    expect(fromAtom(RSS2)).toEqual([
      {
        id: '3sqb1z',
        title: 'Tor Project says FBI paid university to uncover users',
        subreddit: 'technology',
        author: 'maxwellhill',
        score: null,
        comments: null,
        url: null,
        permalink: 'https://www.reddit.com/r/technology/comments/3sqb1z/tor_project_says_fbi_paid_university/',
        posted_at: Date.UTC(2015, 10, 13, 16, 2, 31) / 1000,
        nsfw: null,
        stickied: null,
      },
      expect.objectContaining({ id: '3sr7kq', subreddit: 'worldnews', author: '[deleted]' }),
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
