import { jsonSchema, tool } from 'ai';
import type { QueryOf, SvcClient } from './client.js';

/**
 * svc as Vercel AI SDK tools: `generateText({ model, tools: svcTools(client), … })`. Each tool calls
 * the client, so payments stay under its spend caps and answers keep their signed `_receipt`.
 */

export interface SvcToolsOptions {
  /** Bundles are paid (pass or wallet) for up to 20 queries with full rows; else free: 5 queries, one row each. */
  paidBundles?: boolean;
}

type PreviewQuery = QueryOf<'/api/data/preview'>;

const TYPE = { type: 'string', description: 'a data type from svc_catalog, e.g. crypto-price, weather, stock-quote' } as const;
const Q = { type: 'string', description: 'what to look up, as in the catalog example, e.g. bitcoin or 40.71,-74.01' } as const;

export function svcTools(client: SvcClient, { paidBundles = false }: SvcToolsOptions = {}) {
  return {
    svc_catalog: tool({
      description: 'List the data types svc answers, with an example query for each. Call first to pick a type.',
      inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {}, additionalProperties: false }),
      execute: async () => {
        const catalog = await client.catalog();
        return catalog.data_types.map(({ type, desc, example }) => ({ type, desc, example }));
      },
    }),
    svc_query: tool({
      description: 'One current row of a data type, signed by svc (the answer carries a verifiable _receipt).',
      inputSchema: jsonSchema<{ type: string; q: string }>({
        type: 'object',
        properties: { type: TYPE, q: Q },
        required: ['type', 'q'],
        additionalProperties: false,
      }),
      execute: ({ type, q }) => client.query({ type, q } as PreviewQuery),
    }),
    svc_bundle: tool({
      description: `Several queries in one call (${paidBundles ? 'up to 20' : 'up to 5'}), each { type, q }.`,
      inputSchema: jsonSchema<{ queries: { type: string; q: string }[] }>({
        type: 'object',
        properties: {
          queries: {
            type: 'array',
            minItems: 1,
            maxItems: paidBundles ? 20 : 5,
            items: { type: 'object', properties: { type: TYPE, q: Q }, required: ['type', 'q'], additionalProperties: false },
          },
        },
        required: ['queries'],
        additionalProperties: false,
      }),
      execute: ({ queries }) => client.bundle({ queries } as Parameters<SvcClient['bundle']>[0], { free: !paidBundles }),
    }),
    svc_resolve_entity: tool({
      description: 'Resolve a name, ticker, ISIN, CUSIP or contract address to svc entities and the data types that work with them.',
      inputSchema: jsonSchema<{ q: string }>({
        type: 'object',
        properties: { q: { type: 'string', description: 'e.g. Apple, BTC, US0378331005' } },
        required: ['q'],
        additionalProperties: false,
      }),
      execute: ({ q }) => client.entity.resolve({ q }),
    }),
    svc_agent_context: tool({
      description: 'For a goal in plain words (e.g. "should I buy bitcoin?"), the svc data worth fetching and why.',
      inputSchema: jsonSchema<{ goal: string }>({
        type: 'object',
        properties: { goal: { type: 'string' } },
        required: ['goal'],
        additionalProperties: false,
      }),
      execute: ({ goal }) => client.agentContext({ goal }),
    }),
  };
}
