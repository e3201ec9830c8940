import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Refusals that happen before the MCP transport sees the request still answer in JSON-RPC form. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_ANON_PER_MIN: '2' } });
});
afterAll(async () => t.close());

const ping = () =>
  t.app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress: '203.0.113.9',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 'p', method: 'ping' },
  });

describe('/mcp errors', () => {
  it('a rate-limited request is a 429 with Retry-After and a JSON-RPC error carrying the house code', async () => {
    const answers = [await ping(), await ping(), await ping()];
    expect(answers.slice(0, 2).map((a) => a.statusCode)).toEqual([200, 200]);
    const limited = answers[2]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Refused before the body is read, so the request's id is unknown: null, as JSON-RPC provides.
    expect(limited.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: 'rate_limited' } } });
  });
});
