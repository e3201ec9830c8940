import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankMovers } from '../../src/gainers/providers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let withKey: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SVC_CRON_KEY: 'a-long-cron-secret-123', UPSTREAM_YOUTUBE_KEY: '' } });
  withKey = await startTestApp({ sim: t.sim });
});
afterAll(async () => {
  await withKey.close();
  await t.close();
});

describe('gainers', () => {
  it('lists only coins that rose for dir=up and only coins that fell for dir=down, biggest move first', async () => {
    const up = (await t.app.inject('/api/v1/gainers')).json();
    expect(up).toMatchObject({ type: 'crypto', dir: 'up', source: 'coingecko' });
    expect(up.top.map((m: { ticker: string }) => m.ticker)).toEqual(['SOL', 'BTC']);
    expect(up.top[0]).toEqual({ ticker: 'SOL', name: 'Solana', price: 241.1, change_24h_pct: 7.931, volume_24h: 5400000000 });
    const down = (await t.app.inject('/api/v1/gainers?dir=down&limit=5')).json();
    expect(down.top.map((m: { ticker: string }) => m.ticker)).toEqual(['DOGE', 'ETH']);
    expect(down._receipt.sources).toEqual(['coingecko']);
  });

  // Regression (found by the route fuzzer): a screener with no stock moving that way was a 503.
  it('answers an empty list, not an upstream error, when nothing moved that way', async () => {
    const res = await t.app.inject('/api/v1/gainers?type=stock&dir=down');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'stock', dir: 'down', source: 'yahoo', top: [] });
  });

  it('keeps the sign of dir and sorts by the move, whatever the upstream sends (property)', () => {
    const mover = fc.record({
      ticker: fc.string(),
      name: fc.string(),
      price: fc.double({ noNaN: true }),
      volume_24h: fc.constant(null),
      change_24h_pct: fc.double({ min: -100, max: 100, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(mover), fc.constantFrom('up' as const, 'down' as const), (movers, dir) => {
        const ranked = rankMovers(movers, dir).map((m) => m.change_24h_pct);
        expect(ranked.every((c) => (dir === 'up' ? c > 0 : c < 0))).toBe(true);
        expect(ranked).toEqual([...ranked].sort((a, b) => (dir === 'up' ? b - a : a - b)));
        expect(ranked.length).toBe(movers.filter((m) => (dir === 'up' ? m.change_24h_pct > 0 : m.change_24h_pct < 0)).length);
      }),
    );
  });

  it('lists stock movers from the screener and bounds limit', async () => {
    const stocks = (await t.app.inject('/api/v1/gainers?type=stock&limit=1')).json();
    expect(stocks.top).toEqual([{ ticker: 'ACME', name: 'Acme Robotics Inc.', price: 41.27, change_24h_pct: 17.41, volume_24h: 12093100 }]);
    expect((await t.app.inject('/api/v1/gainers?limit=21')).json().details).toMatchObject({ field: 'limit', rule: 'maximum', limit: 20 });
    expect((await t.app.inject('/api/v1/gainers?type=bond')).statusCode).toBe(400);
  });
});

describe('viral', () => {
  it('without a key, ranks the niche channel feeds of the last 24 h by views', async () => {
    const body = (await t.app.inject('/api/v1/viral/today?niche=ai')).json();
    expect(body).toMatchObject({ niche: 'ai', date: '2026-11-22', source: 'youtube-feeds' });
    expect(body.top5).toEqual([
      {
        video_id: 'aB3dE5gH7jK',
        title: 'New AI Beats Humans At Chess960',
        channel: 'Two Minute Papers',
        published_at: 1795335300,
        views: 184220,
        url: 'https://www.youtube.com/watch?v=aB3dE5gH7jK',
        thumbnail_url: 'https://i.ytimg.com/vi/aB3dE5gH7jK/hqdefault.jpg',
      },
      expect.objectContaining({ video_id: 'Zx9Yw8Vu7Ts', views: 95310 }),
      expect.objectContaining({ video_id: 'Lm3Np5Qr7St', views: 61240 }),
      expect.objectContaining({ video_id: 'Uv8Wx0Yz2Ab', views: 40115 }),
      expect.objectContaining({ video_id: 'Cd4Ef6Gh8Ij', views: 27902 }),
    ]);
    expect(body._receipt).toBeDefined();
  });

  it("with a key, searches today's videos and ranks them by view count", async () => {
    const body = (await withKey.app.inject('/api/v1/viral/today?niche=markets')).json();
    expect(body.source).toBe('youtube');
    expect(body.top5.map((v: { video_id: string; views: number }) => [v.video_id, v.views])).toEqual([
      ['Ab12Cd34Ef5', 1204332],
      ['Mn90Op12Qr3', 512004],
      ['St45Uv67Wx8', 240991],
      ['Gh56Ij78Kl9', 88210],
      ['Yz01Ab23Cd4', 61002],
    ]);
  });

  it('refresh requires the cron key (403 otherwise) and refreshes every niche', async () => {
    expect((await t.app.inject('/api/v1/viral/refresh')).statusCode).toBe(403);
    const wrong = await t.app.inject('/api/v1/viral/refresh?key=a-long-cron-secret-124');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: 'forbidden' });
    expect((await withKey.app.inject('/api/v1/viral/refresh?key=anything')).statusCode).toBe(403); // no SVC_CRON_KEY: refresh disabled
    const ok = (await t.app.inject('/api/v1/viral/refresh?key=a-long-cron-secret-123')).json();
    expect(ok.results.map((r: { niche: string; ok: boolean }) => [r.niche, r.ok])).toEqual([
      ['markets', true],
      ['tech', true],
      ['ai', true],
      ['trade', true],
    ]);
  });

  it('rejects an unknown niche', async () => {
    expect((await t.app.inject('/api/v1/viral/today?niche=cats')).json().details).toMatchObject({ field: 'niche', rule: 'enum' });
  });
});

describe('cams', () => {
  it('lists the four curated cameras from the data file', async () => {
    const body = (await t.app.inject('/api/v1/cams')).json();
    expect(body.count).toBe(4);
    expect(body.cams).toHaveLength(4);
    for (const cam of body.cams) expect(cam.embed_url).toMatch(/^https:\/\//);
    expect(body.source).toMatch(/^curated: svc maintainers .*; https:\/\/.*; retrieved \d{4}-\d{2}-\d{2}$/);
  });
});
