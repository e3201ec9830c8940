import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { inputSchemaMisses, outputSchemaMisses } from '../helpers/tool-schema-rules.js';

/** Tool schemas every major client takes: OpenAI's strict tool mode converts every tool; no portability warnings. */
let t: TestApp;
let base: string;
const clients: Client[] = [];
const connect = async (query: string) => {
  const client = new Client({ name: 'schema-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`)));
  clients.push(client);
  return client;
};
beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await t.close();
});

const structured = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as Record<string, unknown>;

describe('MCP tool schemas', () => {
  it.each(['', '?toolsets=all', '?toolsets=dynamic'])(
    'tools/list%s: every input converts in strict mode, no schema is unportable',
    async (query) => {
      const { tools } = await (await connect(query)).listTools();
      expect(tools.flatMap((tool) => [...inputSchemaMisses(tool), ...outputSchemaMisses(tool)])).toEqual([]);
    },
  );

  it('the full definitions (svc://tools/{name}, describe_tool) follow the same rules', async () => {
    const client = await connect('?toolsets=all');
    const misses: string[] = [];
    for (const { name } of (await client.listTools()).tools.filter((tool) => tool.name !== 'next_page')) {
      const contents = (await client.readResource({ uri: `svc://tools/${name}` })).contents[0] as { text: string };
      const full = JSON.parse(contents.text) as Tool;
      misses.push(...inputSchemaMisses(full), ...outputSchemaMisses(full));
    }
    expect(misses).toEqual([]);
  });

  it('optional arguments stay optional; a strict client’s nulls for them are taken as absent', async () => {
    const client = await connect('');
    const query = (await client.listTools()).tools.find((tool) => tool.name === 'query')!;
    expect(query.inputSchema.required).toEqual(['type']);
    const nulls = Object.fromEntries(Object.keys(query.inputSchema.properties!).map((name) => [name, null]));
    const result = await client.callTool({ name: 'query', arguments: { ...nulls, type: 'crypto-price', q: 'bitcoin' } });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({ ok: true, type: 'crypto-price', q: 'bitcoin' });
  });

  it('a free-form argument is JSON text in the schema; JSON text and an object both work', async () => {
    const client = await connect('');
    const tools = (await client.listTools()).tools;
    const receipt = tools.find((tool) => tool.name === 'verify_receipt')!.inputSchema.properties!.receipt as { type: string };
    expect(receipt.type).toBe('string');
    const answer = structured(await client.callTool({ name: 'query', arguments: { type: 'crypto-price', q: 'bitcoin' } }));
    const asText = { receipt: JSON.stringify(answer._receipt), response: JSON.stringify(answer) };
    const asObjects = { receipt: answer._receipt, response: answer };
    for (const args of [asText, asObjects]) {
      const verdict = await client.callTool({ name: 'verify_receipt', arguments: args });
      expect(structured(verdict)).toMatchObject({ valid: true, kid: t.deps.signingKey.kid });
    }
    const broken = await client.callTool({ name: 'verify_receipt', arguments: { receipt: '{"v":1' } });
    expect(broken.isError).toBe(true);
    expect(structured(broken)).toMatchObject({ error: 'bad_request', details: { field: 'receipt', rule: 'json_text' } });
  });

  it('call_tool takes the arguments as JSON text (or an object)', async () => {
    const client = await connect('?toolsets=dynamic');
    for (const args of ['{"type":"crypto-price","q":"bitcoin"}', { type: 'crypto-price', q: 'bitcoin' }]) {
      const result = await client.callTool({ name: 'call_tool', arguments: { name: 'query', arguments: args } });
      expect(structured(result)).toMatchObject({ ok: true, type: 'crypto-price' });
    }
  });
});
