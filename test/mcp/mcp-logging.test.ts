import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** The MCP logging capability, as conformance tools test it: declared, and logging/setLevel answered. */
let t: TestApp;
let base: string;
let mcp: Client;
beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  mcp = new Client({ name: 'logging-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await mcp?.close();
  await t.close();
});

describe('MCP logging', () => {
  it('declares the capability and accepts every level logging/setLevel names', async () => {
    expect(mcp.getServerCapabilities()).toMatchObject({ logging: {} });
    for (const level of ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const)
      expect(await mcp.setLoggingLevel(level)).toEqual({});
  });

  it('refuses a level the protocol does not name, naming params.level', async () => {
    const answer = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'loud' } }),
    });
    // The SDK answers a request its schema refuses with -32603 and the validation issues.
    const { error } = JSON.parse(await answer.text()) as { error: { message: string } };
    expect(error.message).toMatch(/"level"/);
    expect(error.message).toMatch(/expected one of/);
  });
});
