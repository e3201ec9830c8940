import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { TEXT_MAX_BYTES } from '../../src/agent-session/schemas.js';

/**
 * A session's history as JSON pages (issue 35, item 2): GET /api/agent-session/events and the session_history tool
 * read a session of many events at the largest text size in pages under 10,000 o200k tokens that hold every event
 * once, in seq order.
 */
const BUDGET = 10_000;
const EVENTS = 40;
const tokens = (value: unknown) => countTokens(JSON.stringify(value));
/** Base64 of random bytes: about the most tokens a text of TEXT_MAX_BYTES can take. */
const largeText = () => randomBytes((TEXT_MAX_BYTES / 4) * 3).toString('base64');

type Event = { seq: number; text: string; kind: string };
type Page = { status: string; total: number; count: number; after: number; next_after?: number; events: Event[] };

describe.each(STORE_BACKENDS)('session history on %s', (store) => {
  let t: TestApp;
  let base: string;
  let session: { session_id: string; session_token: string };
  const texts: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ postgres: store === 'postgres' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    session = (await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'history' } })).json();
    for (let i = 0; i < EVENTS; i += 1) {
      texts.push(largeText());
      const posted = await t.app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        headers: { authorization: `Bearer ${session.session_token}` },
        payload: { session_id: session.session_id, kind: 'log', text: texts[i] },
      });
      expect(posted.statusCode).toBe(200);
    }
  }, 60_000);
  afterAll(() => t.close());

  const read = async (query: string) => {
    const res = await fetch(`${base}/api/agent-session/events?${query}`);
    return { status: res.status, body: (await res.json()) as Page & Record<string, any> };
  };

  it('pages a long history under the token budget, every event once and in seq order', async () => {
    const seen: Event[] = [];
    let pages = 0;
    for (let after: number | undefined = 0; after !== undefined; pages += 1) {
      const { status, body } = await read(`session_id=${session.session_id}&after=${after}&limit=500`);
      expect(status).toBe(200);
      expect(tokens(body), `page ${pages + 1}`).toBeLessThanOrEqual(BUDGET);
      expect(body).toMatchObject({ status: 'live', total: EVENTS, count: body.events.length, after });
      seen.push(...body.events);
      after = body.next_after;
      if (after !== undefined) expect(after).toBe(body.events.at(-1)!.seq);
    }
    expect(pages).toBeGreaterThan(3);
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
    expect(seen.map((e) => e.text)).toEqual(texts);
  });

  it('caps a page at limit, and includes the end event once the session ended', async () => {
    const small = await t.app.inject({ method: 'POST', url: '/api/agent-session/start' });
    const s = small.json() as { session_id: string; session_token: string };
    for (const text of ['one', 'two', 'three'])
      await t.app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        headers: { authorization: `Bearer ${s.session_token}` },
        payload: { session_id: s.session_id, kind: 'thought', text },
      });
    const first = await read(`session_id=${s.session_id}&limit=2`);
    expect(first.body).toMatchObject({ count: 2, next_after: 2, total: 3 });
    expect(first.body.events.map((e) => e.text)).toEqual(['one', 'two']);
    await t.app.inject({
      method: 'POST',
      url: '/api/agent-session/end',
      headers: { authorization: `Bearer ${s.session_token}` },
      payload: { session_id: s.session_id },
    });
    const rest = await read(`session_id=${s.session_id}&after=2`);
    expect(rest.body).toMatchObject({ status: 'ended', total: 4, count: 2 });
    expect(rest.body).not.toHaveProperty('next_after');
    expect(rest.body.events.map((e) => [e.kind, e.text])).toEqual([
      ['thought', 'three'],
      ['end', 'ended'],
    ]);
    expect((await read(`session_id=${s.session_id}&after=99`)).body).toMatchObject({ count: 0, events: [] });
  });

  it('refuses bad input with a 400 naming the field, and an unknown session with a 404', async () => {
    const id = session.session_id;
    for (const [query, field] of [
      [`session_id=${id}&limit=0`, 'limit'],
      [`session_id=${id}&limit=501`, 'limit'],
      [`session_id=${id}&after=-1`, 'after'],
      [`session_id=${id}&after=x`, 'after'],
      ['session_id=not-a-session', 'session_id'],
      ['', 'session_id'],
    ] as const) {
      const { status, body } = await read(query);
      expect(status, query).toBe(400);
      expect(JSON.stringify(body.details), query).toContain(field);
    }
    const unknown = await read(`session_id=as_${'A'.repeat(22)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'not_found', details: { field: 'session_id' } });
  });

  it('session_history over MCP: results under the budget that hold the whole history, within the output schema', async () => {
    const client = new Client({ name: 'history-reader', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?toolsets=sessions`)));
    const tool = (await client.listTools()).tools.find((t) => t.name === 'session_history')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    const validate = new Ajv({ strict: false }).compile(tool.outputSchema!);
    const seen: Event[] = [];
    let nextPages = 0;
    for (let after: number | undefined = 0; after !== undefined;) {
      let result = await client.callTool({ name: 'session_history', arguments: { session_id: session.session_id, after } });
      const first = result.structuredContent as Page & { _page?: { next?: string } };
      for (;;) {
        expect(result.isError).toBeFalsy();
        expect(tokens(result)).toBeLessThanOrEqual(BUDGET);
        const page = result.structuredContent as Page & { _page?: { next?: string } };
        expect(validate(page), JSON.stringify(validate.errors)).toBe(true);
        // next_page results too: a stored page reaches no route, yet says where the caller stands.
        expect(result._meta?.['svc/ratelimit']).toMatchObject({ remaining: expect.any(Number) });
        seen.push(...page.events);
        if (!page._page?.next) break;
        result = await client.callTool({ name: 'next_page', arguments: { cursor: page._page.next } });
        nextPages += 1;
      }
      after = first.next_after;
    }
    await client.close();
    expect(nextPages).toBeGreaterThan(0);
    expect(seen.map((e) => e.text)).toEqual(texts);
  }, 60_000);
});
