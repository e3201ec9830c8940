import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import * as content from './content.js';
import * as pages from './pages.js';
import { FAVICON_PATH } from '../core/brand.js';
import { x402Descriptor, x402WellKnown } from './x402.js';
import { buildTools } from '../mcp/tools.js';
import type { OpenApiDoc } from '../mcp/schema.js';

type Doc = { path: string; type: string; summary: string; build: (input: content.DiscoveryInput) => unknown };

const DOCS: Doc[] = [
  { path: '/', type: 'text/html; charset=utf-8', summary: 'Landing page', build: pages.landingPage },
  { path: '/llms.txt', type: 'text/plain; charset=utf-8', summary: 'Site overview for language models', build: content.llmsTxt },
  { path: '/AGENTS.md', type: 'text/markdown; charset=utf-8', summary: 'Agent interaction rules', build: content.agentsMd },
  { path: '/.well-known/x402.json', type: 'application/json', summary: 'Payment protocol descriptor', build: x402Descriptor },
  { path: '/.well-known/x402', type: 'application/json', summary: 'x402 resource list for indexers', build: x402WellKnown },
  { path: '/.well-known/mcp.json', type: 'application/json', summary: 'Tool-server discovery descriptor', build: content.mcpDescriptor },
  { path: '/.well-known/ai-plugin.json', type: 'application/json', summary: 'Legacy plugin manifest', build: content.aiPlugin },
  {
    path: '/.well-known/agent-card.json',
    type: 'application/json',
    summary: 'Agent card: skills, and the MCP and HTTP interfaces (svc has no A2A endpoint)',
    build: content.agentCard,
  },
  { path: '/how-svc-saves-agents-money', type: 'text/html; charset=utf-8', summary: 'Comparison article', build: pages.savesMoneyPage },
  { path: '/svc/comparison.json', type: 'application/json', summary: 'Machine-readable comparison', build: content.comparison },
  { path: '/svc/why-agents-pick-svc', type: 'text/html; charset=utf-8', summary: 'Question-and-answer page', build: pages.whyPage },
  { path: '/logo.svg', type: 'image/svg+xml', summary: 'Logo', build: content.logoSvg },
  { path: FAVICON_PATH, type: 'image/svg+xml', summary: 'Favicon (the logo)', build: content.logoSvg },
  // Browsers ask for /favicon.ico on their own; every modern one renders the SVG it gets.
  { path: '/favicon.ico', type: 'image/svg+xml', summary: 'Favicon for browsers that ask for /favicon.ico', build: content.logoSvg },
];

/**
 * Discovery files depend only on the registry, prices, base URL and the MCP tools; they are built
 * once, on first request, when the OpenAPI document the tools derive from is complete.
 */
export const discoveryRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const built = new Map<string, string>();
    const input = (): content.DiscoveryInput => {
      const openapi = app.swagger() as unknown as OpenApiDoc;
      return {
        baseUrl: deps.config.publicUrl,
        sources: deps.registry.all(),
        tools: buildTools(openapi).map((t) => t.definition),
        openapi,
        x402: { network: deps.config.x402Network, payTo: deps.config.payTo },
      };
    };
    const textOf = (doc: Doc) => {
      if (!built.size) {
        const shared = input();
        for (const d of DOCS) {
          const value = d.build(shared);
          built.set(d.path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
        }
      }
      return built.get(doc.path)!;
    };
    for (const doc of DOCS) {
      const mime = doc.type.split(';')[0]!;
      const body = mime === 'application/json' ? { description: 'JSON document' } : { type: 'string' };
      const response = { 200: { description: doc.summary, content: { [mime]: { schema: body } } } };
      app.get(doc.path, { schema: { tags: ['discovery'], summary: doc.summary, response } }, async (_request, reply) =>
        reply.type(doc.type).header('cache-control', 'public, max-age=300').send(textOf(doc)),
      );
    }
  };
