import Type from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { importOnce } from '../core/import-once.js';
import { FreeObject, errorResponses } from '../core/schemas.js';
import { injectCaller } from './caller.js';
import type { OpenApiDoc } from './schema.js';
import { buildTools, type BuiltTool, type Credentials } from './tools.js';

export const MCP_PATH = '/mcp';

// Both are the MCP SDK (server.js is built on it): imported with the first POST, not at start-up.
const loadServer = importOnce(() => import('./server.js'));
const loadTransport = importOnce(() => import('@modelcontextprotocol/sdk/server/streamableHttp.js'));

const DESCRIPTION =
  'Model Context Protocol (2025-06-18) over streamable HTTP, **stateless**: no `Mcp-Session-Id`, every POST carries one JSON-RPC message and gets ' +
  'its answer as JSON (`Accept: application/json, text/event-stream`). Tools call this service’s own routes, so rate limits, payments and ' +
  'receipts apply as for HTTP clients. Credentials on this request are used by the tools: `Authorization: Bearer svc-pass_…` (a pass, for paid ' +
  'tools), `Bearer svc-ak_…` (an agent key, for record_claim), `Bearer ast_…` (a session token, for session_event), `X-API-Key` (rate-limit tier). Without a pass, paid tools return the x402 ' +
  'challenge as a structured result; pay it and call the tool again with its `payment` argument.';

/** `Authorization: Bearer <token>` is a pass, an agent key or a session token by its prefix. */
function credentialsOf(request: FastifyRequest): Credentials {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const apiKey = request.headers['x-api-key'];
  return {
    clientIp: request.ip,
    ...(token?.startsWith('svc-pass_') ? { pass: token } : {}),
    ...(token?.startsWith('svc-ak_') ? { agentKey: token } : {}),
    ...(token?.startsWith('ast_') ? { sessionToken: token } : {}),
    ...(token?.startsWith('svc_key_') ? { apiKey: token } : {}),
    ...(typeof apiKey === 'string' ? { apiKey } : {}),
  };
}

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

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const { doc, tools } = toolsOnce();
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([loadServer(), loadTransport()]);
      const server = createMcpServer({ doc, tools, caller, credentials: credentialsOf(request) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
          body: FreeObject('one JSON-RPC 2.0 request or notification'),
          response: {
            200: FreeObject('the JSON-RPC response'),
            202: Type.Null({ description: 'accepted (a notification has no answer)' }),
            ...errorResponses(400),
          },
        },
      },
      handle,
    );

    app.get(
      MCP_PATH,
      {
        schema: {
          tags: ['mcp'],
          summary: 'What the MCP endpoint is (for people and link checkers)',
          description:
            'Stateless mode offers no server-initiated stream, so a GET asking for `text/event-stream` is answered 405 as the MCP specification ' +
            'provides. Any other GET returns this endpoint’s description and tool names.',
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
            405: FreeObject('JSON-RPC error: no standalone stream in stateless mode'),
            ...errorResponses(400),
          },
        },
      },
      async (request, reply) => {
        if (String(request.headers.accept ?? '').includes('text/event-stream')) {
          return reply
            .code(405)
            .header('allow', 'POST')
            .send({
              jsonrpc: '2.0',
              error: { code: -32000, message: 'Method not allowed: this server is stateless and has no standalone stream' },
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
          tools: tools.map((t) => t.definition.name),
        };
      },
    );
  };
