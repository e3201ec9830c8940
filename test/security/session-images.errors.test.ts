import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { blackPng } from '../chart/crafted-images.js';

/**
 * Audit finding 4: the public session routes stored any bytes behind an image's magic bytes, without
 * a bound (30 MiB a second from one address, kept for a week). Screenshots are decoded before they
 * are stored, and bounded per session (413), per client address and day (429) and by a global budget
 * that evicts the images of the longest-ended sessions first (429 only when live sessions hold it all).
 */
const SIDE = 316;
/** A PNG of random pixels, stored uncompressed: about 300 KB, different every time. */
const noisePng = () =>
  sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

describe.each(STORE_BACKENDS)('session screenshots (%s)', (backend) => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((t) => t.close())));
  const start = async (env: Record<string, string> = {}) => {
    const t = await startTestApp({ postgres: backend === 'postgres', env });
    apps.push(t);
    return t;
  };

  const session = async (t: TestApp, ip: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {}, remoteAddress: ip });
    const { session_id, session_token } = res.json();
    const post = (image: Buffer, from = ip) =>
      t.app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        remoteAddress: from,
        headers: { authorization: `Bearer ${session_token}` },
        payload: { session_id, kind: 'screenshot', screenshot_b64: image.toString('base64') },
      });
    const end = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/agent-session/end',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${session_token}` },
        payload: { session_id },
      });
    return { id: session_id as string, token: session_token as string, post, end };
  };
  const stored = async (t: TestApp) =>
    (await t.deps.store.db.selectFrom('agent_session_screenshots').select('sha256').execute()).map((r) => r.sha256);
  const events = async (t: TestApp) =>
    Number(
      (
        await t.deps.store.db
          .selectFrom('agent_session_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const shaOf = (res: { json(): any }) => res.json().seq as number;

  describe('decoding and the per-session and per-client quotas', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await start({ SVC_SESSION_IMAGES_PER_SESSION_MB: '1', SVC_SESSION_IMAGES_PER_CLIENT_DAY_MB: '2' });
    });

    it('random bytes behind a PNG header, or a truncated PNG, are a 400 and store nothing', async () => {
      const s = await session(t, '10.0.0.1');
      const good = await noisePng();
      const before = { images: await stored(t), events: await events(t) };
      for (const bytes of [Buffer.concat([good.subarray(0, 8), randomBytes(20_000)]), good.subarray(0, good.length / 2)]) {
        const res = await s.post(bytes);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ error: 'invalid_image', details: { field: 'screenshot_b64' } });
      }
      const gif = await s.post(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
      expect(gif.statusCode).toBe(415);
      expect({ images: await stored(t), events: await events(t) }).toEqual(before);
      expect((await s.post(good)).statusCode).toBe(200);
    });

    it('a decompression bomb (a few KB declaring 33 megapixels) is refused from its header: 422 naming the field', async () => {
      const s = await session(t, '10.0.0.9');
      const bomb = blackPng(6000, 5500);
      expect(bomb.length).toBeLessThan(100_000);
      const before = { images: await stored(t), events: await events(t) };
      const res = await s.post(bomb);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        error: 'image_too_many_pixels',
        details: { field: 'screenshot_b64', limit: 'max_pixels', max: 16_777_216, pixels: 33_000_000, width: 6000, height: 5500 },
      });
      expect({ images: await stored(t), events: await events(t) }).toEqual(before);
      expect((await s.post(blackPng(4096, 4096))).statusCode).toBe(200);
    });

    it('past 1 MiB in one session: 413 image_quota_exceeded, nothing stored', async () => {
      const s = await session(t, '10.0.0.2');
      for (let i = 0; i < 3; i++) expect((await s.post(await noisePng())).statusCode).toBe(200);
      const before = { images: await stored(t), events: await events(t) };
      const res = await s.post(await noisePng());
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({
        error: 'image_quota_exceeded',
        details: { field: 'screenshot_b64', quota: 'per_session', limit_bytes: 1_048_576 },
      });
      expect({ images: await stored(t), events: await events(t) }).toEqual(before);
      // Text events still go in.
      const text = await t.app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        remoteAddress: '10.0.0.2',
        headers: { authorization: `Bearer ${s.token}` },
        payload: { session_id: s.id, kind: 'log', text: 'still here' },
      });
      expect(text.statusCode).toBe(200);
    });

    it('past 2 MiB a day from one address: 429 until the next UTC day, other addresses unaffected', async () => {
      const [a, b] = [await session(t, '10.0.0.3'), await session(t, '10.0.0.3')];
      for (const s of [a, b]) for (let i = 0; i < 3; i++) expect(shaOf(await s.post(await noisePng()))).toBeGreaterThan(0);
      const c = await session(t, '10.0.0.3');
      const refused = await c.post(await noisePng());
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        error: 'image_budget_exhausted',
        details: { quota: 'per_client_day', limit_bytes: 2 * 1_048_576 },
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await c.post(await noisePng(), '10.0.0.4')).statusCode).toBe(200);
      t.clock.advance(86_400_000);
      expect((await (await session(t, '10.0.0.3')).post(await noisePng())).statusCode).toBe(200);
    });
  });

  it('the global budget evicts the images of the longest-ended sessions first, then answers 429', async () => {
    const t = await start({ SVC_SESSION_IMAGES_BUDGET_MB: '1' });
    const first = await session(t, '10.1.0.1');
    const firstImages = [await noisePng(), await noisePng()];
    for (const image of firstImages) expect((await first.post(image)).statusCode).toBe(200);
    expect((await first.end()).statusCode).toBe(200);
    t.clock.advance(1000);
    const second = await session(t, '10.1.0.2');
    expect((await second.post(await noisePng())).statusCode).toBe(200);
    expect((await second.end()).statusCode).toBe(200);
    const secondStored = (await stored(t)).length;
    expect(secondStored).toBe(3);

    const live = await session(t, '10.1.0.3');
    expect((await live.post(await noisePng())).statusCode).toBe(200);
    expect((await stored(t)).length).toBe(3); // one of the first session's images made room
    expect((await live.post(await noisePng())).statusCode).toBe(200);
    expect((await live.post(await noisePng())).statusCode).toBe(200);
    // Only the live session's three remain: the first session's went before the second's.
    const byLive = await t.deps.store.db
      .selectFrom('agent_session_events')
      .select('screenshot_sha256')
      .where('session_id', '=', live.id)
      .execute();
    expect((await stored(t)).sort()).toEqual(byLive.map((r) => r.screenshot_sha256).sort());

    const full = await live.post(await noisePng());
    expect(full.statusCode).toBe(429);
    expect(full.json()).toMatchObject({ error: 'image_budget_exhausted', details: { quota: 'global', limit_bytes: 1_048_576 } });
    expect(full.headers['retry-after']).toBeDefined();
  });
});
