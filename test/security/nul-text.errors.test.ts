import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';

/**
 * Audit finding 1: a U+0000 in a free-text field was a 500 on Postgres (text cannot hold 0x00) and
 * stored on SQLite. The input guard refuses it in every string of a body, query or path with a 400
 * naming the field, on both engines, before anything is written.
 */
const ADMIN = 'nul-admin-token-0123456789';
const NUL = 'a\u0000b';

describe.each(STORE_BACKENDS)('U+0000 in any string (%s)', (backend) => {
  let t: TestApp;
  let session: { session_id: string; session_token: string };
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres', env: { SVC_ADMIN_TOKEN: ADMIN } });
    session = (await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'clean' } })).json();
  });
  afterAll(() => t.close());

  const rows = async () => {
    const db = t.deps.store.db;
    const count = async (table: 'agent_sessions' | 'agent_session_events' | 'calib_agents' | 'api_keys') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      sessions: await count('agent_sessions'),
      events: await count('agent_session_events'),
      agents: await count('calib_agents'),
      keys: await count('api_keys'),
    };
  };

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });

  it.each([
    ['training-station name', () => post('/api/v1/training-station/register', { agent_id: 'nul:a', name: NUL }), 'name'],
    [
      'training-station public_key',
      () => post('/api/v1/training-station/register', { agent_id: 'nul:b', name: 'B', public_key: `ed25519:0123456789abcdef${NUL}` }),
      'public_key',
    ],
    ['session label', () => post('/api/agent-session/start', { label: NUL }), 'label'],
    ['session agent_id', () => post('/api/agent-session/start', { agent_id: NUL }), 'agent_id'],
    [
      'event text',
      () =>
        post(
          '/api/agent-session/event',
          { session_id: session.session_id, kind: 'thought', text: NUL },
          { authorization: `Bearer ${session.session_token}` },
        ),
      'text',
    ],
    ['admin key name', () => post('/api/v1/admin/keys', { name: NUL }, { authorization: `Bearer ${ADMIN}` }), 'name'],
  ])('%s: 400 naming the field, nothing stored', async (_name, send, field) => {
    const before = await rows();
    const res = await send();
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', details: { field, in: 'body', rule: 'no_nul' } });
    expect(await rows()).toEqual(before);
  });

  it('in a query or a path parameter: 400 naming it', async () => {
    const query = await t.app.inject('/api/v1/entity/resolve?q=bit%00coin');
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ details: { field: 'q', in: 'querystring', rule: 'no_nul' } });
    const path = await t.app.inject('/api/v1/entity/svc-ent:x%00y');
    expect(path.statusCode).toBe(400);
    expect(path.json()).toMatchObject({ details: { field: 'id', in: 'params', rule: 'no_nul' } });
  });

  it('through MCP: the tool call carrying it is refused before any tool runs', async () => {
    const before = await rows();
    const res = await post(
      '/mcp',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'session_event', arguments: { session_id: session.session_id, kind: 'thought', text: NUL } },
      },
      { accept: 'application/json, text/event-stream', authorization: `Bearer ${session.session_token}` },
    );
    expect(res.statusCode).toBe(400);
    // /mcp answers in JSON-RPC form, the house error in `data`.
    expect(res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, data: { error: 'validation_failed', details: { field: 'params.arguments.text', rule: 'no_nul' } } },
    });
    expect(await rows()).toEqual(before);
  });

  it('text without U+0000 is still stored', async () => {
    const res = await post('/api/agent-session/start', { label: 'fine \u0001 text' });
    expect(res.statusCode).toBe(200);
  });
});
