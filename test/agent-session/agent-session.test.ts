import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { openStream } from './sse.js';

const png = () =>
  sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

describe.each(STORE_BACKENDS)('agent sessions on %s', (store) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ postgres: store === 'postgres', env: { SVC_SESSION_RETENTION_H: '2' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  const start = async (body?: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', ...(body ? { payload: body } : {}) });
    expect(res.statusCode).toBe(200);
    return res.json() as { session_id: string; session_token: string; watch_url: string; stream_url: string; expires_at: number };
  };
  const post = (s: { session_id: string; session_token: string }, event: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/agent-session/event',
      headers: { authorization: `Bearer ${s.session_token}` },
      payload: { session_id: s.session_id, ...event },
    });
  const stream = (id: string, headers: Record<string, string> = {}) =>
    openStream(`${base}/api/agent-session/stream?session_id=${id}`, headers);

  it('starts a session with an opaque id, public URLs and a token that is stored only as a hash', async () => {
    const s = await start({ label: 'Booking a flight', agent_id: 'acme:browser-1', ttl_minutes: 30 });
    expect(s.session_id).toMatch(/^as_[A-Za-z0-9_-]{22}$/);
    expect(s.watch_url).toBe(`http://svc.test/watch/${s.session_id}`);
    expect(s.stream_url).toBe(`http://svc.test/api/agent-session/stream?session_id=${s.session_id}`);
    expect(s.expires_at).toBe(t.clock.now() + 30 * 60_000);
    const row = await t.deps.store.db
      .selectFrom('agent_sessions')
      .selectAll()
      .where('session_id', '=', s.session_id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(s.session_token);
    const info = (await t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).json();
    expect(info).toMatchObject({
      label: 'Booking a flight',
      agent_id: 'acme:browser-1',
      visibility: 'public',
      status: 'live',
      events: 0,
      watchers: 0,
    });
    expect(info).not.toHaveProperty('token_hash');
    expect((await start()).expires_at).toBe(t.clock.now() + 60 * 60_000); // no body: every default
  });

  it('streams each posted event as an unnamed `id` + `data` message holding the posted fields plus seq', async () => {
    const s = await start({ label: 'demo' });
    const watcher = await stream(s.session_id);
    expect(watcher.res.status).toBe(200);
    expect(watcher.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await watcher.waitFor(watcher.opened);
    const ts = t.clock.now() - 1000;
    expect((await post(s, { kind: 'navigate', text: 'https://example.org', ts })).json()).toEqual({ ok: true, seq: 1 });
    expect((await post(s, { kind: 'error', text: 'timeout on /search' })).json()).toEqual({ ok: true, seq: 2 });
    expect((await post(s, { kind: 'thought', text: 'looks right' })).json()).toEqual({ ok: true, seq: 3 });
    const events = await watcher.waitForEvents(3);
    expect(events.map((m) => [m.id, m.data.kind])).toEqual([
      ['1', 'navigate'],
      ['2', 'error'],
      ['3', 'thought'],
    ]);
    expect(events[0]!.data).toEqual({
      session_id: s.session_id,
      kind: 'navigate',
      text: 'https://example.org',
      screenshot_b64: null,
      ts,
      seq: 1,
    });
    expect(events[1]!.data.ts).toBe(t.clock.now());
    // By default only what the agent posted: no state messages, no named messages.
    expect(watcher.messages).toHaveLength(3);
    expect(watcher.raw()).not.toMatch(/^event:/m);
    expect(watcher.raw()).toContain('id: 2\ndata: {"session_id"');

    const ended = await t.app.inject({
      method: 'POST',
      url: '/api/agent-session/end',
      headers: { authorization: `Bearer ${s.session_token}` },
      payload: { session_id: s.session_id },
    });
    expect(ended.json()).toEqual({ ok: true, status: 'ended', ended_at: t.clock.now(), delete_at: t.clock.now() + 2 * 3_600_000 });
    await watcher.waitFor(() => watcher.ended());
    expect(watcher.events().map((m) => m.id)).toEqual(['1', '2', '3']); // the stream closed without a state message
    await watcher.close();

    const late = await stream(s.session_id);
    await late.waitFor(() => late.ended());
    expect(late.events().map((m) => m.data.kind)).toEqual(['navigate', 'error', 'thought']);
    // EventSource reconnects with the last id it saw: nothing more will come, so 204 stops it.
    const done = await fetch(`${base}/api/agent-session/stream?session_id=${s.session_id}`, { headers: { 'last-event-id': '3' } });
    expect(done.status).toBe(204);
  });

  it('adds state messages with state=1: the session state first, then the final end event', async () => {
    const s = await start({ label: 'demo' });
    const watcher = await openStream(`${base}/api/agent-session/stream?session_id=${s.session_id}&state=1`);
    await watcher.waitFor(() => watcher.states().length > 0);
    expect(watcher.messages[0]).toEqual({
      data: { state: expect.objectContaining({ session_id: s.session_id, label: 'demo', status: 'live', watchers: 1 }) },
    });
    await post(s, { kind: 'click', text: 'Search' });
    await watcher.waitForEvents(1);
    await t.app.inject({
      method: 'POST',
      url: '/api/agent-session/end',
      headers: { authorization: `Bearer ${s.session_token}` },
      payload: { session_id: s.session_id },
    });
    await watcher.waitFor(() => watcher.ended());
    expect(watcher.events().at(-1)).toEqual({
      id: '2',
      data: {
        session_id: s.session_id,
        kind: 'end',
        text: 'ended',
        screenshot_b64: null,
        ts: t.clock.now(),
        seq: 2,
        state: { status: 'ended' },
      },
    });
    const withState = `${base}/api/agent-session/stream?session_id=${s.session_id}&state=1`;
    expect((await fetch(withState, { headers: { 'last-event-id': '1' } })).status).toBe(200);
    expect((await fetch(withState, { headers: { 'last-event-id': '2' } })).status).toBe(204);
  });

  it('answers HEAD on the stream at once with the stream headers, holding no watcher slot', async () => {
    const s = await start();
    for (let i = 0; i < 5; i++) {
      const head = await fetch(`${base}/api/agent-session/stream?session_id=${s.session_id}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    }
    expect((await t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).json().watchers).toBe(0);
  });

  it('replays from Last-Event-ID without loss or duplicates, then continues live', async () => {
    const s = await start();
    for (let i = 1; i <= 5; i++) await post(s, { kind: 'log', text: `step ${i}` });
    const resumed = await stream(s.session_id, { 'last-event-id': '2' });
    await resumed.waitForEvents(3);
    await post(s, { kind: 'log', text: 'step 6' });
    const events = await resumed.waitForEvents(4);
    expect(events.map((m) => m.data.text)).toEqual(['step 3', 'step 4', 'step 5', 'step 6']);
    await resumed.close();
    const byQuery = await openStream(`${base}/api/agent-session/stream?session_id=${s.session_id}&last_event_id=5`);
    expect((await byQuery.waitForEvents(1)).map((m) => m.id)).toEqual(['6']);
    await byQuery.close();
  });

  it('numbers concurrent posts 1..n without gaps and streams them in that order', async () => {
    const s = await start();
    const watcher = await stream(s.session_id);
    await watcher.waitFor(watcher.opened);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(s, { kind: 'fetch', text: `request ${i}` })));
    const seqs = answers.map((a) => a.json().seq as number).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const events = await watcher.waitForEvents(40);
    expect(events.map((m) => Number(m.id))).toEqual(seqs);
    await watcher.close();
  });

  it('stores a screenshot once by SHA-256 and streams its URL, served with cache headers', async () => {
    const s = await start();
    const image = await png();
    const first = await post(s, { kind: 'screenshot', text: 'home page', screenshot_b64: image.toString('base64') });
    expect(first.json()).toEqual({ ok: true, seq: 1 });
    await post(s, { kind: 'click', text: 'again', screenshot_b64: `data:image/png;base64,${image.toString('base64')}` });
    expect(await t.deps.store.db.selectFrom('agent_session_screenshots').select('sha256').execute()).toHaveLength(1);
    const replay = await stream(s.session_id);
    const [shot] = await replay.waitForEvents(2);
    await replay.close();
    const url = shot!.data.screenshot_url as string;
    expect(url).toMatch(/^http:\/\/svc\.test\/api\/agent-session\/screenshot\/[0-9a-f]{64}$/);
    expect(JSON.stringify(shot!.data)).not.toContain(image.toString('base64').slice(0, 40));
    const served = await t.app.inject(new URL(url).pathname);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(image)).toBe(true);
    const again = await t.app.inject({ url: new URL(url).pathname, headers: { 'if-none-match': served.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('expires an idle session after its TTL with a final end, keeps it read-only, then deletes it', async () => {
    const s = await start({ ttl_minutes: 10 });
    await post(s, {
      kind: 'screenshot',
      screenshot_b64: (
        await sharp({ create: { width: 3, height: 3, channels: 3, background: '#123456' } })
          .jpeg()
          .toBuffer()
      ).toString('base64'),
    });
    const watcher = await stream(`${s.session_id}&state=1`);
    await watcher.waitForEvents(1);
    t.clock.advance(9 * 60_000);
    await post(s, { kind: 'log', text: 'still here' }); // activity moves the expiry
    t.clock.advance(9 * 60_000);
    await t.app.scheduler.tick();
    expect((await t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).json().status).toBe('live');
    t.clock.advance(2 * 60_000);
    await t.app.scheduler.tick();
    await watcher.waitFor(() => watcher.ended());
    expect(watcher.events().at(-1)).toMatchObject({ data: { kind: 'end', text: 'expired', state: { status: 'expired' } } });
    expect((await post(s, { kind: 'log', text: 'too late' })).statusCode).toBe(410);
    expect((await t.app.inject(`/watch/${s.session_id}`)).statusCode).toBe(200);
    const info = (await t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).json();
    expect(info).toMatchObject({ status: 'expired', events: 3, delete_at: t.clock.now() + 2 * 3_600_000 });

    t.clock.advance(2 * 3_600_000);
    await t.app.scheduler.tick();
    expect((await t.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).statusCode).toBe(404);
    expect((await t.app.inject(`/watch/${s.session_id}`)).statusCode).toBe(404);
    expect(await t.deps.store.db.selectFrom('agent_session_events').select('seq').where('session_id', '=', s.session_id).execute()).toEqual(
      [],
    );
    const shots = await t.deps.store.db.selectFrom('agent_session_screenshots').select('mime').execute();
    expect(shots.map((r) => r.mime)).not.toContain('image/jpeg');
  });

  it('serves the watch page, its assets and the widget with a strict CSP and cache validators', async () => {
    const s = await start({ visibility: 'unlisted' });
    const page = await t.app.inject(`/watch/${s.session_id}`);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.body).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/);
    const missing = await t.app.inject('/watch/as_doesnotexistdoesnotexist00');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Session not found');
    expect(missing.body).toContain('/assets/watch.css');
    expect((await t.app.inject('/watch/not-a-session')).statusCode).toBe(404);
    for (const path of ['/assets/watch.js', '/assets/watch.css', '/widget/watch.js']) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['cache-control'], path).toMatch(/^public, max-age=\d+$/);
      expect((await t.app.inject({ url: path, headers: { 'if-none-match': res.headers.etag as string } })).statusCode, path).toBe(304);
    }
    const widget = await t.app.inject({ url: '/widget/watch.js', headers: { origin: 'https://blog.example' } });
    expect(widget.headers['access-control-allow-origin']).toBe('*');
    expect(widget.body).not.toContain('innerHTML');
  });
});
