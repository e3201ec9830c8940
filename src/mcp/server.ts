import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from './caller.js';
import { PROMPTS } from './prompts.js';
import type { OpenApiDoc } from './schema.js';
import type { Progress } from './progress.js';
import { buildTools, callTool, refuseUnknownArguments, type BuiltTool, type CallExtras, type Credentials } from './tools.js';
import { DEFAULT_SELECTION, META_TOOLS, reachable, toolSummaries, type ToolSelection } from './toolsets.js';
import { paymentInMeta } from './x402.js';
import { limitsMeta } from './limits-meta.js';
import { decodeJsonText } from './portable-input.js';
import { serveResources, type CatalogEntry } from './resources.js';
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
      return refuseUnknownArguments(NEXT_PAGE_TOOL, args) ?? withStanding(await nextPageResult(args, pages), caller, credentials);
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

  serveResources(server, { doc, get, catalog, anyTool });

  servePrompts(server);
  return server;
}

/**
 * A stored page reaches no route, so its result reads the caller's standing (GET /api/v1/limits, counted as the request
 * it is) for the rate-limit numbers every tool result carries in `_meta`.
 */
async function withStanding(result: CallToolResult, caller: McpContext['caller'], credentials: Credentials): Promise<CallToolResult> {
  const headers: Record<string, string> = {
    ...(credentials.clientIp ? { 'x-forwarded-for': credentials.clientIp } : {}),
    ...(credentials.apiKey ? { 'x-api-key': credentials.apiKey } : {}),
  };
  const meta = limitsMeta(await caller({ method: 'GET', path: '/api/v1/limits', headers }));
  return Object.keys(meta).length ? { ...result, _meta: { ...result._meta, ...meta } } : result;
}

/** The prompts: listed, and rendered with their arguments (a missing required one is InvalidParams). */
function servePrompts(server: Server): void {
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
}

const structured = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});

const notFound = (name: string, names: string[]): CallToolResult => {
  const body = { error: 'not_found', message: `no tool ${name}; tools: ${names.join(', ')}`, details: { field: 'name' } };
  return { content: [{ type: 'text', text: body.message }], structuredContent: body, isError: true };
};
