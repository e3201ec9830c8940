import Type from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { booleanParam, BOOLEAN_RULE } from '../core/booleans.js';
import { ApiError } from '../core/errors.js';
import { importOnce } from '../core/import-once.js';
import { FreeObject } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { guardHosts } from './allowed-hosts.js';
import { injectCaller, type Caller } from './caller.js';
import { JsonRpcErrorSchema, jsonRpcErrors } from './json-rpc-errors.js';
import { MCP_PROTOCOL_VERSION } from './protocol.js';
import type { OpenApiDoc } from './schema.js';
import { buildTools, type BuiltTool, type Credentials } from './tools.js';
import { TOOLSET_WORDS } from '../config-toolsets.js';
import { parseSelection, reachable, UnknownToolset, type ToolSelection } from './toolsets.js';

export const MCP_PATH = '/mcp';

// Both are the MCP SDK (server.js is built on it): imported with the first POST, not at start-up.
const loadServer = importOnce(() => import('./server.js'));
const loadTransport = importOnce(() => import('@modelcontextprotocol/sdk/server/streamableHttp.js'));

const DESCRIPTION =
  `Model Context Protocol (${MCP_PROTOCOL_VERSION}, older versions negotiated) over streamable HTTP, **stateless**: no \`Mcp-Session-Id\`, every POST carries one ` +
  'JSON-RPC message and gets its answer as JSON, or as a short event stream when the call asks for progress (`_meta.progressToken`; send ' +
  '`Accept: application/json, text/event-stream`). `?toolsets=` picks the tools listed (comma-separated: data, calibration, sessions, safety, ' +
  'arena, chart, portfolio, `all`, `default` = data,safety, `dynamic` = three meta-tools reaching every tool); `?readonly=1` leaves out tools ' +
  'that record something. A request naming a `Host` the instance does not serve, or sent by a page of another `Origin`, is refused 403 ' +
  '(the DNS-rebinding guard: SVC_MCP_ALLOWED_HOSTS, SVC_MCP_ALLOWED_ORIGINS). Tools call this service’s own routes, so rate limits, payments and receipts apply as for HTTP clients. Credentials ' +
  'on this request are used by the tools: `Authorization: Bearer svc-pass_…` (a pass, for paid tools), `Bearer svc-ak_…` (an agent key, for ' +
  'record_claim), `Bearer ast_…` (a session token, for session_event), any other bearer token as a portfolio token, `X-API-Key` (rate-limit tier). ' +
  'Paid tools follow the x402 MCP transport: unpaid, the result is `isError` with the x402 `PaymentRequired` as `structuredContent`; the payment goes ' +
  'in `params._meta["x402/payment"]` and the settlement comes back in `_meta["x402/payment-response"]`. **Errors are JSON-RPC, not the house error ' +
  'body**: a request the transport refuses (bad JSON, wrong content type or Accept, too large, rate limited, unknown toolset) is answered with ' +
  'its HTTP status and `{jsonrpc: "2.0", id, error: {code, message, data}}`, `data` carrying the house `error` code, `details` and `request_id`; ' +
  'a tool that fails answers 200 with an `isError` result.';

/** `?toolsets=…&readonly=1`; an unknown toolset is a 400 naming it. */
function selectionOf(request: FastifyRequest): ToolSelection {
  const query = request.query as { toolsets?: string; readonly?: string };
  try {
    return parseSelection(query.toolsets, booleanParam(query.readonly, 'readonly') ?? false);
  } catch (e) {
    if (!(e instanceof UnknownToolset)) throw e;
    throw new ApiError('bad_request', e.message, { field: 'toolsets', rule: 'enum', value: e.word, allowed: [...TOOLSET_WORDS] });
  }
}

const SelectionQuery = Type.Object({
  toolsets: Type.Optional(
    Type.String({ maxLength: 200, description: `comma-separated: ${TOOLSET_WORDS.join(', ')}; default data,safety` }),
  ),
  readonly: Type.Optional(Type.String({ maxLength: 5, description: `leave out tools that record something: ${BOOLEAN_RULE}` })),
});

/** A call that asks for progress gets an event stream (progress, then the answer); any other request a JSON answer. */
const wantsProgress = (body: unknown) =>
  (body as { params?: { _meta?: { progressToken?: unknown } } } | undefined)?.params?._meta?.progressToken !== undefined;

const KNOWN_PREFIXES = ['svc-pass_', 'svc-ak_', 'ast_', 'svc_key_'];

/** `Authorization: Bearer <token>` is a pass, an agent key, a session token or an API key by its prefix; any other is a portfolio token. */
function credentialsOf(request: FastifyRequest): Credentials {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const apiKey = request.headers['x-api-key'];
  return {
    clientIp: request.ip,
    ...(token?.startsWith('svc-pass_') ? { pass: token } : {}),
    ...(token?.startsWith('svc-ak_') ? { agentKey: token } : {}),
    ...(token?.startsWith('ast_') ? { sessionToken: token } : {}),
    ...(token?.startsWith('svc_key_') ? { apiKey: token } : {}),
    ...(token && !KNOWN_PREFIXES.some((p) => token.startsWith(p)) ? { portfolioToken: token } : {}),
    ...(typeof apiKey === 'string' ? { apiKey } : {}),
  };
}

/** What both /mcp routes work with, built once by mcpRoutes. */
interface McpParts {
  ctx: AppContext;
  /** The tools of the finished OpenAPI document, built on first use. */
  toolsOnce: () => { doc: OpenApiDoc; tools: BuiltTool[] };
  hostGuard: ReturnType<typeof guardHosts>;
}

/** The MCP endpoint: POST carries the protocol, GET describes it. */
export const mcpRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Built from the finished OpenAPI document on first use (it exists only once every route is registered).
    let built: { doc: OpenApiDoc; tools: BuiltTool[] } | undefined;
    const toolsOnce = () => {
      if (!built) {
        const doc = app.swagger() as unknown as OpenApiDoc;
        built = { doc, tools: buildTools(doc) };
      }
      return built;
    };
    const caller = injectCaller(app);
    const parts: McpParts = { ctx, toolsOnce, hostGuard: guardHosts(ctx.deps.config.mcpGuard) };
    addProtocolRoute(app, parts, caller);
    addDescriptorRoute(app, parts);
  };

/** POST /mcp: one JSON-RPC message per request, answered by an MCP server built for it (stateless). */
function addProtocolRoute(app: RouteApp, { ctx, toolsOnce, hostGuard }: McpParts, caller: Caller): void {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const { doc, tools } = toolsOnce();
    const selection = selectionOf(request);
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([loadServer(), loadTransport()]);
    const credentials = credentialsOf(request);
    const server = createMcpServer({ doc, tools, caller, credentials, selection, pages: ctx.deps.cache });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !wantsProgress(request.body),
    });
    // The transport writes the raw response; keep the headers hooks already set (request id, rate limit, CORS).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  };

  app.post(
    MCP_PATH,
    {
      schema: {
        tags: ['mcp'],
        summary: 'MCP endpoint (streamable HTTP, stateless)',
        description: DESCRIPTION,
        querystring: SelectionQuery,
        body: FreeObject('one JSON-RPC 2.0 request or notification'),
        response: {
          200: FreeObject(
            'the JSON-RPC response (JSON, or an event stream with progress notifications when the call sent a progressToken)',
          ),
          202: Type.Null({ description: 'accepted (a notification has no answer)' }),
          ...Object.fromEntries([400, 403, 406, 413, 415, 429].map((status) => [status, JsonRpcErrorSchema])),
        },
      },
      onRequest: hostGuard,
      preSerialization: jsonRpcErrors,
    },
    handle,
  );
}

/** GET /mcp: what the endpoint is and which tools a POST with the same query lists (405 for an event stream). */
function addDescriptorRoute(app: RouteApp, { ctx, toolsOnce, hostGuard }: McpParts): void {
  app.get(
    MCP_PATH,
    {
      schema: {
        tags: ['mcp'],
        summary: 'What the MCP endpoint is (for people and link checkers)',
        description:
          'Stateless mode offers no server-initiated stream, so a GET asking for `text/event-stream` is answered 405 as the MCP specification ' +
          'provides. Any other GET returns this endpoint’s description and the names of the tools a POST with the same query lists.',
        querystring: SelectionQuery,
        response: {
          200: Type.Object({
            name: Type.String(),
            version: Type.String(),
            transport: Type.String(),
            stateless: Type.Boolean(),
            endpoint: Type.String(),
            descriptor: Type.String(),
            tools: Type.Array(Type.String()),
          }),
          405: JsonRpcErrorSchema,
          ...Object.fromEntries([400, 403, 429].map((status) => [status, JsonRpcErrorSchema])),
        },
      },
      onRequest: hostGuard,
      preSerialization: jsonRpcErrors,
    },
    async (request, reply) => {
      if (String(request.headers.accept ?? '').includes('text/event-stream')) {
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: {
              code: -32000,
              message: 'Method not allowed: this server is stateless and has no standalone stream',
              data: { error: 'method_not_allowed', request_id: request.id },
            },
            id: null,
          });
      }
      const { doc, tools } = toolsOnce();
      const base = ctx.deps.config.publicUrl;
      return {
        name: 'svc',
        version: doc.info.version,
        transport: 'streamable-http',
        stateless: true,
        endpoint: `${base}${MCP_PATH}`,
        descriptor: `${base}/.well-known/mcp.json`,
        tools: reachable(tools, selectionOf(request), 'list').map((t) => t.spec.name),
      };
    },
  );
}
