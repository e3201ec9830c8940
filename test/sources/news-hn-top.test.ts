import { describe, expect, it } from 'vitest';
import { fromItem, fromSearch, toRows } from '../../src/sources/news-hn-top.js';

describe('news-hn-top', () => {
  it('skips deleted, dead and unknown items and fills what a job or text post lacks', () => {
    expect(fromItem(null)).toEqual([]);
    expect(fromItem({ id: 1, deleted: true, type: 'story' })).toEqual([]);
    expect(fromItem({ id: 2, dead: true, title: 'flagged', type: 'story' })).toEqual([]);
    expect(fromItem({ id: 3, type: 'job', title: 'Hiring', by: 'acme', time: 100 })).toEqual([
      { id: 3, title: 'Hiring', url: null, author: 'acme', points: 0, comments: 0, posted_at: 100 },
    ]);
  });

  it('ranks in the order given and links text posts to their discussion', () => {
    const rows = toRows([
      { id: 10, title: 'Ask HN: x', url: null, author: 'a', points: 5, comments: 2, posted_at: 1 },
      { id: 11, title: 'Link', url: 'https://example.org', author: 'b', points: 3, comments: 0, posted_at: 2 },
    ]);
    expect(rows.map((r) => [r.rank, r.url, r.comments_url])).toEqual([
      [1, 'https://news.ycombinator.com/item?id=10', 'https://news.ycombinator.com/item?id=10'],
      [2, 'https://example.org', 'https://news.ycombinator.com/item?id=11'],
    ]);
    expect(() => toRows([])).toThrow(/front page is empty/);
  });

  it('orders Algolia hits by points and reads null urls, points and comment counts', () => {
    const hit = (id: string, points: number | null, url?: string | null) => ({
      objectID: id,
      title: `t${id}`,
      url,
      author: 'x',
      points,
      num_comments: null,
      created_at_i: 5,
    });
    const stories = fromSearch({ hits: [hit('1', 10, null), hit('2', 99, 'https://a.b'), hit('3', null)] });
    expect(stories.map((s) => [s.id, s.points, s.url, s.comments])).toEqual([
      [2, 99, 'https://a.b', 0],
      [1, 10, null, 0],
      [3, 0, null, 0],
    ]);
  });

  it('links a post sent with "url": "" to its discussion (regression: the empty string was kept)', () => {
    // Item 192327 as the HN API documents its answer (https://github.com/HackerNews/API, README, job example; text shortened).
    const recorded = JSON.parse(
      '{"by":"justin","id":192327,"score":6,"text":"Justin.tv is the biggest live video site online.","time":1210981217,' +
        '"title":"Justin.tv is looking for a Lead Flash Engineer!","type":"job","url":""}',
    );
    const [row] = toRows(fromItem(recorded));
    expect(row).toMatchObject({ id: 192327, url: 'https://news.ycombinator.com/item?id=192327' });
    const hit = { objectID: '192327', title: 't', url: '', author: 'justin', points: 6, num_comments: 0, created_at_i: 1210981217 };
    expect(toRows(fromSearch({ hits: [hit] }))[0]!.url).toBe('https://news.ycombinator.com/item?id=192327');
  });
});
