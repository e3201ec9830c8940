import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { rowComponentName } from '../plugins/openapi-rows.js';
import type { Caller } from './caller.js';
import { PROMPTS } from './prompts.js';
import type { OpenApiDoc } from './schema.js';
import { buildTools, callTool, type BuiltTool, type Credentials } from './tools.js';

export const MCP_NAME = 'svc';

const INSTRUCTIONS = `svc answers with live data of many types behind one query shape (type + q), each answer signed (_receipt).
Start with the resource svc://catalog (types, q shapes, examples) or resolve_entity for names; then query (free) or bundle.
Paid tools (bundle without free, backtest beyond 100 candles, agent_context) return an x402 challenge until paid or a pass is configured.
Verify any answer with verify_receipt. Cite each row's source and as_of (data under CC-BY-4.0).`;

export interface McpContext {
  doc: OpenApiDoc;
  caller: Caller;
  credentials: Credentials;
  /** Tools built once per document; pass them in to avoid rebuilding per request. */
  tools?: BuiltTool[];
}

interface CatalogEntry {
  type: string;
  categories: string[];
  example: string;
  desc: string;
}

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });

/** One MCP server over the service: tools, resources and prompts. Stateless: cheap to build per HTTP request. */
export function createMcpServer({ doc, caller, credentials, tools = buildTools(doc) }: McpContext): Server {
  const server = new Server(
    { name: MCP_NAME, title: 'svc data for agents', version: doc.info.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.definition.name, t]));

  const get = async (path: string, query?: Record<string, string>) => {
    const answer = await caller({
      method: 'GET',
      path,
      query,
      headers: credentials.clientIp ? { 'x-forwarded-for': credentials.clientIp } : {},
    });
    if (answer.status !== 200) throw new McpError(ErrorCode.InternalError, `GET ${path} answered ${answer.status}`);
    return answer.body;
  };
  const catalog = async () => (await get('/api/v1/catalog')) as { data_types: CatalogEntry[] };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => t.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}; tools: ${[...byName.keys()].join(', ')}`);
    return callTool(tool, request.params.arguments ?? {}, caller, credentials);
  });

  const RESOURCES = [
    {
      uri: 'svc://catalog',
      name: 'catalog',
      title: 'Data type catalog',
      description: 'Every data type with its categories, q shape and an example q',
      read: () => get('/api/v1/catalog'),
    },
    {
      uri: 'svc://receipt-key',
      name: 'receipt-key',
      title: 'Receipt public key',
      description: 'Ed25519 key (SPKI and JWK) that signs every _receipt',
      read: () => get('/.well-known/svc-receipt-pubkey.json'),
    },
    {
      uri: 'svc://entities',
      name: 'entities',
      title: 'Entity list',
      description: 'Canonical entities (svc-ent:…) usable as `entity` in query',
      read: () => allEntities(get),
    },
  ];
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...RESOURCES.map(({ read: _read, ...r }) => ({ ...r, mimeType: 'application/json' })),
      ...(await catalog()).data_types.map((d) => ({
        uri: `svc://types/${d.type}`,
        name: d.type,
        description: d.desc,
        mimeType: 'application/json',
      })),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'svc://types/{type}',
        name: 'type',
        title: 'One data type',
        description: 'A data type: q shape, example and the JSON Schema of its rows',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const fixed = RESOURCES.find((r) => r.uri === uri);
    if (fixed) return json(uri, await fixed.read());
    const type = /^svc:\/\/types\/([a-z0-9-]+)$/.exec(uri)?.[1];
    const entry = type ? (await catalog()).data_types.find((d) => d.type === type) : undefined;
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
    const row = doc.components.schemas[rowComponentName(entry.type)];
    return json(uri, { ...entry, query: { tool: 'query', arguments: { type: entry.type, q: entry.example } }, row_schema: row ?? null });
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS.map(({ render: _render, ...p }) => p) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !args[a.name]).map((a) => a.name);
    if (missing.length) throw new McpError(ErrorCode.InvalidParams, `missing argument(s): ${missing.join(', ')}`);
    return {
      description: prompt.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.render(args) } }],
    };
  });
  return server;
}

/** Every entity, page by page (the list route caps a page at 200). */
async function allEntities(get: (path: string, query?: Record<string, string>) => Promise<unknown>) {
  const entities: unknown[] = [];
  for (let offset = 0; ;) {
    const page = (await get('/api/v1/entity/list', { limit: '200', offset: String(offset) })) as { total: number; entities: unknown[] };
    entities.push(...page.entities);
    offset += page.entities.length;
    if (!page.entities.length || offset >= page.total) return { count: entities.length, entities };
  }
}
