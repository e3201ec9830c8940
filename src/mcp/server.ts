import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { rowComponentName } from '../plugins/openapi-rows.js';
import type { Caller } from './caller.js';
import { PROMPTS } from './prompts.js';
import { completion } from './completions.js';
import type { OpenApiDoc } from './schema.js';
import type { Progress } from './progress.js';
import { buildTools, callTool, refuseUnknownArguments, type BuiltTool, type CallExtras, type Credentials } from './tools.js';
import { DEFAULT_SELECTION, META_TOOLS, reachable, toolSummaries, type ToolSelection } from './toolsets.js';
import { paymentInMeta } from './x402.js';
import { limitsMeta } from './limits-meta.js';
import { decodeJsonText } from './portable-input.js';
import { PAGE_TOKENS, tokenCounter } from './budget.js';
import { paginate } from '../core/paginate.js';
import { NEXT_PAGE_TOOL, nextPageResult, processPages, type PageStore } from './result-pages.js';

export const MCP_NAME = 'svc';

const INSTRUCTIONS = `svc answers with live data of many types behind one query shape (type + q), each answer signed (_receipt).
Start with the resource svc://catalog (types, q shapes, examples) or resolve_entity for names; then query (free) or bundle.
Paid tools (bundle without free, backtest beyond 100 candles, agent_context) return the x402 PaymentRequired until paid (_meta["x402/payment"], or x402-mcp's _meta["x402.payment"]) or a pass is configured.
Verify any answer with verify_receipt. Cite each row's source and as_of (data under CC-BY-4.0).
This connection lists some toolsets; connect with ?toolsets=all (or dynamic) for every tool. Full tool definitions: svc://tools/{name}.`;

export interface McpContext {
  doc: OpenApiDoc;
  caller: Caller;
  credentials: Credentials;
  /** Tools built once per document; pass them in to avoid rebuilding per request. */
  tools?: BuiltTool[];
  /** Which of them this connection lists (toolsets, dynamic, read-only). */
  selection?: ToolSelection;
  /** Where the pages of long results wait for next_page: the service's cache (in-process by default). */
  pages?: PageStore;
}

interface CatalogEntry {
  type: string;
  categories: string[];
  example: string;
  desc: string;
}

/** Compact JSON: indentation would spend a model's tokens on spaces. */
const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }] });

/** One MCP server over the service: tools, resources and prompts. Stateless: cheap to build per HTTP request. */
export function createMcpServer({
  doc,
  caller,
  credentials,
  tools = buildTools(doc),
  selection = DEFAULT_SELECTION,
  pages = processPages,
}: McpContext): Server {
  const server = new Server(
    { name: MCP_NAME, title: 'svc data for agents', version: doc.info.version },
    // logging: the SDK answers logging/setLevel and keeps the level per session. Over HTTP each request is a
    // server of its own (stateless), so a level lasts that request; over stdio, the connection. svc sends no
    // log messages yet: progress goes as progress notifications, failures in the results (docs/mcp.md).
    { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  const listed = reachable(tools, selection, 'list');
  const byName = new Map(listed.map((t) => [t.spec.name, t]));
  // Every tool the selection may reach by name: through the dynamic meta-tools and as a resource.
  const anyTool = new Map(reachable(tools, selection, 'dynamic').map((t) => [t.spec.name, t]));

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
  /**
   * A stored page reaches no route, so its result reads the caller's standing (GET /api/v1/limits, counted as the request
   * it is) for the rate-limit numbers every tool result carries in `_meta`.
   */
  const withStanding = async (result: CallToolResult): Promise<CallToolResult> => {
    const headers: Record<string, string> = {
      ...(credentials.clientIp ? { 'x-forwarded-for': credentials.clientIp } : {}),
      ...(credentials.apiKey ? { 'x-api-key': credentials.apiKey } : {}),
    };
    const meta = limitsMeta(await caller({ method: 'GET', path: '/api/v1/limits', headers }));
    return Object.keys(meta).length ? { ...result, _meta: { ...result._meta, ...meta } } : result;
  };
  const catalog = async () => (await get('/api/v1/catalog')) as { data_types: CatalogEntry[] };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...listed.map((t) => t.definition), ...(selection.dynamic ? META_TOOLS : []), NEXT_PAGE_TOOL],
  }));

  /** The dynamic mode's three meta-tools, over every tool the selection reaches. */
  const callMeta = async (meta: Tool, args: Record<string, unknown>, extras: CallExtras): Promise<CallToolResult> => {
    const { name } = meta;
    const refusal = refuseUnknownArguments(meta, args);
    if (refusal) return refusal;
    if (name === 'list_tools') return structured({ tools: toolSummaries([...anyTool.values()], args.toolset as string | undefined) });
    const target = anyTool.get(String(args.name));
    if (!target) return notFound(String(args.name), [...anyTool.keys()]);
    if (name === 'describe_tool') return structured({ ...target.full });
    const decoded = decodeJsonText(args, [['arguments']]);
    if ('refusal' in decoded) return decoded.refusal;
    return callTool(target, (decoded.args.arguments ?? {}) as Record<string, unknown>, caller, credentials, extras);
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {}, _meta: meta } = request.params;
    const token = meta?.progressToken;
    const progress: Progress | undefined = token === undefined ? undefined : { token, notify: (n) => extra.sendNotification(n) };
    const extras: CallExtras = { payment: paymentInMeta(meta), progress, pages };
    if (name === NEXT_PAGE_TOOL.name)
      return refuseUnknownArguments(NEXT_PAGE_TOOL, args) ?? withStanding(await nextPageResult(args, pages));
    const metaTool = selection.dynamic ? META_TOOLS.find((t) => t.name === name) : undefined;
    if (metaTool) return callMeta(metaTool, args, extras);
    const tool = byName.get(name);
    if (tool) return callTool(tool, args, caller, credentials, extras);
    const elsewhere = anyTool.get(name)?.spec.toolset;
    throw new McpError(
      ErrorCode.InvalidParams,
      elsewhere
        ? `tool ${name} is in the toolset ${elsewhere}, which this connection does not list: connect with ?toolsets=${elsewhere} (or all, or dynamic)`
        : `unknown tool ${name}; tools: ${[...byName.keys()].join(', ')}`,
    );
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
      description: 'Canonical entities (svc-ent:…) usable as `entity` in query, in pages: nextCursor is the URI of the next',
      read: () => entityPage(get, 1),
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
      {
        uriTemplate: 'svc://entities{?page}',
        name: 'entities-page',
        title: 'One page of the entity list',
        description: 'Page n of svc://entities (each under the token budget); a page names the next as nextCursor',
        mimeType: 'application/json',
      },
      {
        uriTemplate: 'svc://tools/{name}',
        name: 'tool',
        title: 'One tool in full',
        description: 'A tool’s whole definition: the operation’s description and its input and output schemas uncut',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const fixed = RESOURCES.find((r) => r.uri === uri);
    if (fixed) return json(uri, await fixed.read());
    const entitiesPage = /^svc:\/\/entities\?page=(\d+)$/.exec(uri)?.[1];
    if (entitiesPage) return json(uri, await entityPage(get, Number(entitiesPage)));
    const toolName = /^svc:\/\/tools\/([a-z_]+)$/.exec(uri)?.[1];
    const tool = toolName ? anyTool.get(toolName) : undefined;
    if (tool) return json(uri, tool.full);
    const type = /^svc:\/\/types\/([a-z0-9-]+)$/.exec(uri)?.[1];
    const entry = type ? (await catalog()).data_types.find((d) => d.type === type) : undefined;
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
    const row = doc.components.schemas[rowComponentName(entry.type)];
    return json(uri, { ...entry, query: { tool: 'query', arguments: { type: entry.type, q: entry.example } }, row_schema: row ?? null });
  });

  // The resource templates' variables have known values: the registry's types and the tools this selection reaches.
  server.setRequestHandler(CompleteRequestSchema, async ({ params: { ref, argument } }) => {
    const template = ref.type === 'ref/resource' ? `${ref.uri}#${argument.name}` : undefined;
    if (template === 'svc://types/{type}#type')
      return completion(
        (await catalog()).data_types.map((d) => d.type),
        argument.value,
      );
    if (template === 'svc://tools/{name}#name') return completion([...anyTool.keys()], argument.value);
    return completion([], argument.value);
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

const structured = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});

const notFound = (name: string, names: string[]): CallToolResult => {
  const body = { error: 'not_found', message: `no tool ${name}; tools: ${names.join(', ')}`, details: { field: 'name' } };
  return { content: [{ type: 'text', text: body.message }], structuredContent: body, isError: true };
};

/** Page `n` (from 1) of the entity list cut to the token budget, with the URI of the next as `nextCursor`. */
async function entityPage(get: (path: string, query?: Record<string, string>) => Promise<unknown>, n: number) {
  const tokens = await tokenCounter();
  const pages = paginate(await allEntities(get), tokens, tokens, PAGE_TOKENS);
  const page = pages[n - 1];
  if (!page) throw new McpError(ErrorCode.InvalidParams, `svc://entities has ${pages.length} pages`);
  const { count, entities } = page.value as { count: number; entities: unknown[] };
  const next = n < pages.length ? { nextCursor: `svc://entities?page=${n + 1}` } : {};
  return { total: count, page: n, pages: pages.length, entities, ...next };
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
