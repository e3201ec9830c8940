import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { listKey, parseList, toRows } from '../../src/sources/twitch-top.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const stream = (user_id: string, viewer_count: number) => ({
  user_id,
  user_login: `user${user_id}`,
  user_name: `User${user_id}`,
  game_name: 'Just Chatting',
  title: 't',
  viewer_count,
  started_at: '2026-11-22T08:00:00Z',
  language: 'en',
  thumbnail_url: `https://static-cdn.jtvnw.net/previews-ttv/live_user_user${user_id}-{width}x{height}.jpg`,
});

describe('twitch-top q', () => {
  it('reads top/all, a language code and game:<name>', () => {
    expect(parseList('ALL')).toEqual({ kind: 'top' });
    expect(parseList('De')).toEqual({ kind: 'language', language: 'de' });
    expect(parseList('other')).toEqual({ kind: 'language', language: 'other' });
    expect(parseList('Game:  Counter-Strike   2 ')).toEqual({ kind: 'game', game: 'Counter-Strike 2' });
    for (const bad of ['', 'english', 'game:', 'game:   ', 'top,en', `game:${'x'.repeat(101)}`, 'game:a\u0007b'])
      expect(() => parseList(bad), bad).toThrow(/list_label/);
  });

  it('gives a cache key that parses back to the same list', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom('top', 'all', 'EN', 'fr', 'other'),
          fc.string({ minLength: 1, maxLength: 100 }).map((s) => `game:${s}`),
        ),
        (q) => {
          let list;
          try {
            list = parseList(q);
          } catch {
            return;
          }
          expect(parseList(listKey(list))).toEqual(list);
        },
      ),
    );
  });
});

describe('twitch-top rows', () => {
  it('keeps a channel once, most viewers first, with a sized thumbnail and Unix start time', () => {
    const rows = toRows({ data: [stream('1', 50), stream('2', 900), stream('1', 40)] });
    expect(rows.map((r) => [r.rank, r.user_login, r.viewer_count])).toEqual([
      [1, 'user2', 900],
      [2, 'user1', 50],
    ]);
    expect(rows[0]).toMatchObject({
      url: 'https://www.twitch.tv/user2',
      started_at: 1795334400,
      is_mature: null,
      thumbnail_url: 'https://static-cdn.jtvnw.net/previews-ttv/live_user_user2-320x180.jpg',
    });
  });

  it('caps the list at 20 and calls an empty page no data', () => {
    expect(toRows({ data: Array.from({ length: 30 }, (_, i) => stream(String(i), i)) })).toHaveLength(20);
    expect(() => toRows({ data: [] })).toThrow(/no live stream/);
  });
});

describe('twitch-top through the runner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.sim.clearOverrides());

  it('resolves game:<name> to its category id before listing streams', async () => {
    t.sim.serve({
      host: 'twitch',
      path: '/helix/games',
      query: { name: 'Just Chatting' },
      body: {
        data: [
          {
            id: '509658',
            name: 'Just Chatting',
            box_art_url: 'https://static-cdn.jtvnw.net/ttv-boxart/509658-{width}x{height}.jpg',
            igdb_id: '',
          },
        ],
      },
    });
    t.sim.serve({
      host: 'twitch',
      path: '/helix/streams',
      query: { game_id: '509658' },
      body: { data: [stream('7', 1234)], pagination: {} },
    });
    const result = await t.deps.sources.run('twitch-top', 'game:Just Chatting', { maxAgeS: 0 });
    expect(result.ok && result.rows.map((r) => r.user_login)).toEqual(['user7']);
  });

  it('answers no_data for a category Twitch does not know', async () => {
    t.sim.serve({ host: 'twitch', path: '/helix/games', query: { name: 'Nope' }, body: { data: [] } });
    const result = await t.deps.sources.run('twitch-top', 'game:Nope', { maxAgeS: 0 });
    expect(result).toMatchObject({ ok: false, error: 'no_data' });
  });
});

describe('twitch-top without credentials', () => {
  it('fails with upstream_key_missing naming the variable', async () => {
    const t = await startTestApp({ env: { UPSTREAM_TWITCH_AUTH_KEY: '' } });
    try {
      const result = await t.deps.sources.run('twitch-top', 'top', { maxAgeS: 0 });
      expect(result).toMatchObject({
        ok: false,
        error: 'upstream_key_missing',
        message: expect.stringContaining('UPSTREAM_TWITCH_AUTH_KEY'),
      });
    } finally {
      await t.close();
    }
  });
});
