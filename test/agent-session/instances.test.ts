import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uniqueName } from '../helpers/backends.js';
import { openStream } from './sse.js';

/** Two instances on one Postgres and one Redis: what one is told, the other's watchers see. */
const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.runIf(shared)('agent sessions across two instances (Postgres + Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  beforeAll(async () => {
    const common = {
      postgres: true,
      redis: true,
      pgSchema: uniqueName('as'),
      redisPrefix: uniqueName('as'),
      env: { SVC_SESSION_WATCHERS_PER_SESSION: '3' },
    };
    a = await startTestApp(common);
    b = await startTestApp({ ...common, sim: a.sim, clock: a.clock });
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const url = (base: string, id: string) => `${base}/api/agent-session/stream?session_id=${id}`;

  it('fans events posted on either instance out to watchers of both, in one order, ending on both', async () => {
    const s = (await a.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'two' } })).json();
    const onA = await openStream(`${url(baseA, s.session_id)}&state=1`);
    const onB = await openStream(`${url(baseB, s.session_id)}&state=1`);
    await onB.waitFor(() => onB.messages.length > 0);
    await onA.waitFor(() => onA.messages.length > 0);
    const auth = { authorization: `Bearer ${s.session_token}` };
    const posts = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        headers: auth,
        payload: { session_id: s.session_id, kind: 'click', text: `#${i}` },
      }),
    );
    const seqs = (await Promise.all(posts)).map((r) => r.json().seq as number).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const fromA = await onA.waitForEvents(20);
    const fromB = await onB.waitForEvents(20);
    expect(fromB.map((m) => Number(m.id))).toEqual(seqs);
    expect(fromB.map((m) => m.data.text)).toEqual(fromA.map((m) => m.data.text));

    expect(
      (await b.app.inject({ method: 'POST', url: '/api/agent-session/end', headers: auth, payload: { session_id: s.session_id } }))
        .statusCode,
    ).toBe(200);
    await onA.waitFor(() => onA.ended());
    await onB.waitFor(() => onB.ended());
    expect(onA.events().at(-1)?.data.kind).toBe('end');
    expect(onB.events().at(-1)?.data.kind).toBe('end');
  });

  it('counts watchers of a session across instances against one cap', async () => {
    const s = (await b.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {} })).json();
    const open = [
      await openStream(url(baseA, s.session_id)),
      await openStream(url(baseB, s.session_id)),
      await openStream(url(baseA, s.session_id)),
    ];
    expect((await fetch(url(baseB, s.session_id))).status).toBe(429);
    expect((await a.app.inject(`/api/agent-session/session?session_id=${s.session_id}`)).json().watchers).toBe(3);
    await Promise.all(open.map((o) => o.close()));
  });
});
