import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import * as content from './content.js';

type Doc = { path: string; type: string; summary: string; build: (input: content.DiscoveryInput) => unknown };

const DOCS: Doc[] = [
  { path: '/', type: 'text/html; charset=utf-8', summary: 'Landing page', build: content.landingPage },
  { path: '/llms.txt', type: 'text/plain; charset=utf-8', summary: 'Site overview for language models', build: content.llmsTxt },
  { path: '/AGENTS.md', type: 'text/markdown; charset=utf-8', summary: 'Agent interaction rules', build: content.agentsMd },
  { path: '/.well-known/x402.json', type: 'application/json', summary: 'Payment protocol descriptor', build: content.x402Descriptor },
  { path: '/.well-known/mcp.json', type: 'application/json', summary: 'Tool-server discovery descriptor', build: content.mcpDescriptor },
  { path: '/.well-known/ai-plugin.json', type: 'application/json', summary: 'Legacy plugin manifest', build: content.aiPlugin },
  { path: '/.well-known/agent-card.json', type: 'application/json', summary: 'Agent-to-agent protocol card', build: content.agentCard },
  { path: '/how-svc-saves-agents-money', type: 'text/html; charset=utf-8', summary: 'Comparison article', build: content.savesMoneyPage },
  { path: '/svc/comparison.json', type: 'application/json', summary: 'Machine-readable comparison', build: content.comparison },
  { path: '/svc/why-agents-pick-svc', type: 'text/html; charset=utf-8', summary: 'Question-and-answer page', build: content.whyPage },
];

/** Discovery files are built once at start-up: they depend only on the registry, prices and base URL. */
export const discoveryRoutes = ({ deps }: AppContext): FastifyPluginAsync => async (app) => {
  const input = { baseUrl: deps.config.publicUrl, sources: deps.registry.all() };
  for (const doc of DOCS) {
    const built = doc.build(input);
    const text = typeof built === 'string' ? built : JSON.stringify(built, null, 2);
    app.get(doc.path, { schema: { tags: ['discovery'], summary: doc.summary } }, async (_request, reply) =>
      reply.type(doc.type).header('cache-control', 'public, max-age=300').send(text),
    );
  }
};
