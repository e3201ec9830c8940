import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { openStream } from './sse.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp({
    env: { SVC_SESSION_WATCHERS_PER_IP: '3', SVC_SESSION_WATCHERS_PER_SESSION: '2', SVC_SESSION_TTL_MAX_MIN: '120' },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const start = async () =>
  (await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {} })).json() as {
    session_id: string;
    session_token: string;
  };
const post = (sessionId: string, token: string | undefined, event: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/agent-session/event',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: { session_id: sessionId, ...event },
  });

describe('agent session writes need the session token', () => {
  it('401 without a token, 403 with another session’s, 404 for an unknown session, 410 once ended', async () => {
    const a = await start();
    const b = await start();
    const missing = await post(a.session_id, undefined, { kind: 'click' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: 'unauthorized', details: { field: 'Authorization' } });
    expect((await post(a.session_id, b.session_token, { kind: 'click' })).json()).toMatchObject({ error: 'forbidden' });
    expect((await post(a.session_id, 'ast_wrong', { kind: 'click' })).statusCode).toBe(403);
    expect((await post('as_unknownunknownunknown00', a.session_token, { kind: 'click' })).statusCode).toBe(404);
    const end = (token: string | undefined) =>
      t.app.inject({
        method: 'POST',
        url: '/api/agent-session/end',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload: { session_id: a.session_id },
      });
    expect((await end(undefined)).statusCode).toBe(401);
    expect((await end(b.session_token)).statusCode).toBe(403);
    expect((await end(a.session_token)).statusCode).toBe(200);
    expect((await end(a.session_token)).json()).toMatchObject({ error: 'session_ended', details: { status: 'ended' } });
    expect((await post(a.session_id, a.session_token, { kind: 'click' })).statusCode).toBe(410);
    expect((await post(a.session_id, b.session_token, { kind: 'click' })).statusCode).toBe(403); // a wrong token learns nothing
    const events = await t.deps.store.db.selectFrom('agent_session_events').select('kind').where('session_id', '=', a.session_id).execute();
    expect(events.map((e) => e.kind)).toEqual(['end']);
  });
});

describe('agent session input limits', () => {
  it('rejects unknown kinds, the reserved end kind, extra fields and bad start options by name', async () => {
    const s = await start();
    for (const kind of ['hover', 'end', '']) {
      const res = await post(s.session_id, s.session_token, { kind });
      expect(res.statusCode, kind).toBe(400);
      expect(res.json().details.field).toBe('kind');
    }
    expect((await post(s.session_id, s.session_token, { kind: 'click', html: '<b>' })).statusCode).toBe(400);
    const startWith = (payload: object) => t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload });
    expect((await startWith({ ttl_minutes: 121 })).json().details).toMatchObject({ field: 'ttl_minutes', rule: 'maximum' });
    expect((await startWith({ ttl_minutes: 0 })).statusCode).toBe(400);
    expect((await startWith({ visibility: 'secret' })).json().details.field).toBe('visibility');
    expect((await startWith({ label: 'x'.repeat(201) })).json().details.field).toBe('label');
  });

  it('bounds text at 4096 bytes of UTF-8 and ts to the last hour / next 5 minutes', async () => {
    const s = await start();
    expect((await post(s.session_id, s.session_token, { kind: 'log', text: 'a'.repeat(4096) })).statusCode).toBe(200);
    const multibyte = await post(s.session_id, s.session_token, { kind: 'log', text: 'é'.repeat(2049) });
    expect(multibyte.statusCode).toBe(400);
    expect(multibyte.json().details).toMatchObject({ field: 'text', max_bytes: 4096 });
    const now = t.clock.now();
    expect((await post(s.session_id, s.session_token, { kind: 'log', ts: now - 3_600_001 })).json().details.field).toBe('ts');
    expect((await post(s.session_id, s.session_token, { kind: 'log', ts: now + 300_001 })).json().details.field).toBe('ts');
    expect((await post(s.session_id, s.session_token, { kind: 'log', ts: 1.5 })).statusCode).toBe(400);
    expect((await post(s.session_id, s.session_token, { kind: 'log', ts: now + 300_000 })).statusCode).toBe(200);
  });

  it('accepts PNG, JPEG and WebP by magic bytes only, at most 1 MiB decoded', async () => {
    const s = await start();
    const image = sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } });
    for (const bytes of [
      await image.clone().png().toBuffer(),
      await image.clone().jpeg().toBuffer(),
      await image.clone().webp().toBuffer(),
    ]) {
      expect((await post(s.session_id, s.session_token, { kind: 'screenshot', screenshot_b64: bytes.toString('base64') })).statusCode).toBe(
        200,
      );
    }
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const wrongType = await post(s.session_id, s.session_token, { kind: 'screenshot', screenshot_b64: gif.toString('base64') });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().details.field).toBe('screenshot_b64');
    const html = await post(s.session_id, s.session_token, {
      kind: 'screenshot',
      screenshot_b64: Buffer.from('<svg onload=alert(1)>').toString('base64'),
    });
    expect(html.statusCode).toBe(415);
    expect((await post(s.session_id, s.session_token, { kind: 'screenshot', screenshot_b64: 'not base64!' })).statusCode).toBe(400);
    expect((await post(s.session_id, s.session_token, { kind: 'screenshot' })).json().details.field).toBe('screenshot_b64');
    const png = await image.clone().png().toBuffer();
    const oversize = Buffer.concat([png, Buffer.alloc(1_048_577 - png.length, 1)]);
    const tooBig = await post(s.session_id, s.session_token, { kind: 'screenshot', screenshot_b64: oversize.toString('base64') });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ error: 'payload_too_large', details: { field: 'screenshot_b64', max_bytes: 1_048_576 } });
    const exact = Buffer.concat([png, Buffer.alloc(1_048_576 - png.length, 1)]);
    expect((await post(s.session_id, s.session_token, { kind: 'screenshot', screenshot_b64: exact.toString('base64') })).statusCode).toBe(
      200,
    );
    const huge = await post(s.session_id, s.session_token, { kind: 'screenshot', screenshot_b64: 'A'.repeat(3_000_000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('payload_too_large');
  });
});

describe('agent session streams', () => {
  it('404 for an unknown session, 400 for a malformed id', async () => {
    expect((await fetch(`${base}/api/agent-session/stream?session_id=as_unknownunknownunknown00`)).status).toBe(404);
    const bad = await fetch(`${base}/api/agent-session/stream?session_id=../etc`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).details.field).toBe('session_id');
  });

  it('caps watchers per session and per IP, and frees the slot when a watcher leaves', async () => {
    const s = await start();
    const other = await start();
    const url = (id: string) => `${base}/api/agent-session/stream?session_id=${id}`;
    const first = await openStream(url(s.session_id));
    const second = await openStream(url(s.session_id));
    const third = await fetch(url(s.session_id));
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ error: 'rate_limited', details: { limit: 2 } });
    const fourth = await openStream(url(other.session_id)); // third stream of this IP
    const fifth = await fetch(url(other.session_id));
    expect(fifth.status).toBe(429);
    expect((await fifth.json()).message).toContain('per IP');
    await first.close();
    await expect.poll(async () => (await t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).json().watchers).toBe(1);
    const again = await openStream(url(s.session_id));
    expect(again.res.status).toBe(200);
    await Promise.all([again.close(), second.close(), fourth.close()]);
  });
});

describe('agent session stream liveness', () => {
  it('sends a heartbeat comment and the shared watcher count within 15 s of silence', { timeout: 20_000 }, async () => {
    const s = await start();
    const watcher = await openStream(`${base}/api/agent-session/stream?session_id=${s.session_id}&state=1`);
    const opened = Date.now();
    await watcher.waitFor(() => watcher.raw().includes(': heartbeat\n\n'), 15_000);
    expect(Date.now() - opened).toBeLessThanOrEqual(15_000);
    await watcher.waitFor(() => watcher.states().some((state) => 'watchers' in state && !('status' in state)));
    expect(watcher.messages.at(-1)).toEqual({ data: { state: { watchers: 1 } } });
    await watcher.close();
  });
});

describe('agent session shutdown', () => {
  it('ends open streams when the app closes instead of waiting for them forever', async () => {
    const own = await startTestApp();
    const ownBase = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const s = (await own.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {} })).json();
    const watcher = await openStream(`${ownBase}/api/agent-session/stream?session_id=${s.session_id}`);
    await watcher.waitFor(watcher.opened);
    const closed = await Promise.race([own.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('hung'), 5000))]);
    expect(closed).toBe('closed');
    await watcher.waitFor(() => watcher.ended());
  });
});
