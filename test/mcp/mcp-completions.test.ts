import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** MCP completions over HTTP with the SDK client, as conformance tools and the MCP Inspector ask for them. */
let t: TestApp;
let mcp: Client;
beforeAll(async () => {
  t = await startTestApp();
  mcp = new Client({ name: 'completions-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${await t.app.listen({ port: 0, host: '127.0.0.1' })}/mcp?toolsets=all`)));
});
afterAll(async () => {
  await mcp?.close();
  await t.close();
});

const complete = (uri: string, name: string, value: string) =>
  mcp.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } });

describe('MCP completions', () => {
  it('declares the capability', () => {
    expect(mcp.getServerCapabilities()).toMatchObject({ completions: {} });
  });

  it('completes a data type from the registry and a tool name from the listed tools', async () => {
    const types = t.deps.registry.types();
    const crypto = await complete('svc://types/{type}', 'type', 'CRYPTO-');
    expect(crypto.completion.values).toEqual(types.filter((type) => type.startsWith('crypto-')));
    expect(crypto.completion.values).toContain('crypto-price');
    expect((await complete('svc://types/{type}', 'type', '')).completion).toMatchObject({ total: types.length, hasMore: false });
    expect((await complete('svc://tools/{name}', 'name', 'verify_')).completion.values).toEqual(['verify_receipt']);
  });

  it('offers nothing where the values are not known', async () => {
    expect((await complete('svc://types/{type}', 'type', 'no-such-')).completion).toMatchObject({ values: [], total: 0 });
    expect((await complete('svc://catalog', 'q', 'a')).completion.values).toEqual([]);
  });
});
