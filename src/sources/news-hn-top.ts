import { noQ } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import type { HostHttp } from '../upstream/client.js';
import { defineSource, type Row } from './define.js';
import { Item, Search, TopStories } from '../upstream/formats/hacker-news.js';

/** The front page holds 30 stories; the Firebase API asks us to be polite, so at most 10 item calls at once. */
const FRONT_PAGE = 30;
const CONCURRENCY = 10;

export interface Story {
  id: number;
  title: string;
  url: string | null;
  author: string;
  points: number;
  comments: number;
  posted_at: number;
}

const discussion = (id: number) => `https://news.ycombinator.com/item?id=${id}`;

/** Stories in the order given, ranked from 1; text posts link to their discussion page. */
export function toRows(stories: Story[]): Row[] {
  if (stories.length === 0) throw noData('the front page is empty');
  return stories.map((s, i) => ({ rank: i + 1, ...s, url: s.url ?? discussion(s.id), comments_url: discussion(s.id) }));
}

export const fromItem = (item: Item): Story[] =>
  item && !item.deleted && !item.dead && item.title
    ? [
        {
          id: item.id,
          title: item.title,
          // Text posts (Ask HN) come without a url or, in older items, with "url": "".
          url: item.url || null,
          author: item.by ?? '',
          points: item.score ?? 0,
          comments: item.descendants ?? 0,
          posted_at: item.time ?? 0,
        },
      ]
    : [];

/** Algolia's hits are not in front-page order, so points order them (as the facts advise). */
export const fromSearch = (raw: Search): Story[] =>
  raw.hits
    .map((h) => ({
      id: Number(h.objectID),
      title: h.title,
      url: h.url || null,
      author: h.author,
      points: h.points ?? 0,
      comments: h.num_comments ?? 0,
      posted_at: h.created_at_i,
    }))
    .sort((a, b) => b.points - a.points);

async function items(http: HostHttp, ids: number[], deadline: number): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < ids.length; i += CONCURRENCY) {
    const batch = ids.slice(i, i + CONCURRENCY).map((id) => http.json<Item>(`/v0/item/${id}.json`, Item, { deadline }));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/**
 * Rows: rank, id, title, url (the link, or the discussion for text posts), author, points, comments, posted_at (Unix s),
 * comments_url.
 */
export default defineSource<string>({
  type: 'news-hn-top',
  categories: ['news', 'tech'],
  qShape: '',
  example: '',
  desc: 'empty; front page of a tech news aggregator',
  parseQ: noQ,
  ttlSeconds: 300,
  deadlineMs: 6000,
  upstreams: {
    'hn-firebase': async (_q, { http, deadline }) => {
      const ids = (await http.json<number[]>('/v0/topstories.json', TopStories, { deadline })).slice(0, FRONT_PAGE);
      return toRows((await items(http, ids, deadline)).flatMap(fromItem));
    },
    'hn-algolia': async (_q, { http, deadline }) => {
      const query = { tags: 'front_page', hitsPerPage: FRONT_PAGE };
      return toRows(fromSearch(await http.json<Search>('/api/v1/search', Search, { deadline, query })));
    },
  },
});
