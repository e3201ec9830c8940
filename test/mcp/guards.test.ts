import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const JSON_AND_SSE = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** Issue 33, finding 8: read-only mode failed open on `readonly=TRUE`; /mcp answered any Host and Origin (DNS rebinding). */
describe('/mcp guards', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { HOST: '127.0.0.1', SVC_PUBLIC_URL: 'https://svc.example.org/' } });
  });
  afterAll(() => t.close());

  const toolsOf = async (query: string) => (await t.app.inject(`/mcp?toolsets=all&${query}`)).json<{ tools: string[] }>().tools;

  it.each(['1', 'true', 'TRUE', 'yes', 'On'])('readonly=%s leaves out the tools that record something', async (word) => {
    const tools = await toolsOf(`readonly=${word}`);
    expect(tools).toContain('query');
    expect(tools).not.toContain('record_claim');
  });

  it.each(['0', 'false', 'NO', 'off'])('readonly=%s keeps them', async (word) => {
    expect(await toolsOf(`readonly=${word}`)).toContain('record_claim');
  });

  it('refuses a spelling it does not know with a 400 naming readonly, on GET and POST alike', async () => {
    for (const res of [
      await t.app.inject('/mcp?readonly=maybe'),
      await t.app.inject({ method: 'POST', url: '/mcp?readonly=nope', headers: JSON_AND_SSE, payload: LIST }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: { data: { error: 'validation_failed', details: { field: 'readonly', rule: 'boolean' } } },
      });
    }
  });

  it('answers the loopback names and the public host on any port', async () => {
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:3000', 'svc.example.org', 'SVC.example.org:443']) {
      const res = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_AND_SSE, host }, payload: LIST });
      expect(res.statusCode, host).toBe(200);
    }
  });

  it('refuses another Host, or a page of another Origin, with 403 naming the header', async () => {
    const rebound = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...JSON_AND_SSE, host: 'attacker.example:8080' },
      payload: LIST,
    });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        data: { error: 'forbidden', details: { field: 'Host', setting: 'SVC_MCP_ALLOWED_HOSTS' }, request_id: expect.any(String) },
      },
    });
    const page = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...JSON_AND_SSE, host: 'localhost', origin: 'http://attacker.example' },
      payload: LIST,
    });
    expect(page.statusCode).toBe(403);
    expect(page.json()).toMatchObject({ error: { data: { error: 'forbidden', details: { field: 'Origin' } } } });
    expect((await t.app.inject({ url: '/mcp', headers: { host: 'attacker.example' } })).statusCode).toBe(403);
    const inspector = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...JSON_AND_SSE, host: 'localhost:8080', origin: 'http://localhost:6274' },
      payload: LIST,
    });
    expect(inspector.statusCode).toBe(200);
  });

  it('a stock MCP SDK client over a real socket on the loopback address works', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'guard-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('query');
    await client.close();
  });
});

describe('/mcp guard settings', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((t) => t.close())));
  const statusFor = async (env: Record<string, string>, headers: Record<string, string>) => {
    const t = await startTestApp({ env });
    apps.push(t);
    return (await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...JSON_AND_SSE, ...headers }, payload: LIST })).statusCode;
  };

  it('listed hosts and origins replace the defaults; * allows any', async () => {
    const env = { SVC_MCP_ALLOWED_HOSTS: 'mcp.internal', SVC_MCP_ALLOWED_ORIGINS: 'https://app.example.org' };
    expect(await statusFor(env, { host: 'mcp.internal:8080', origin: 'https://app.example.org' })).toBe(200);
    expect(await statusFor(env, { host: 'localhost' })).toBe(403);
    expect(await statusFor(env, { host: 'mcp.internal', origin: 'https://mcp.internal' })).toBe(403);
    expect(await statusFor({ SVC_MCP_ALLOWED_HOSTS: '*' }, { host: 'anything.example' })).toBe(200);
  });
});
