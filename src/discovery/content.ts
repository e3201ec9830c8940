import type { OpenApiDoc } from '../core/openapi-doc.js';
import type { SourceDescriptor } from '../sources/define.js';
import type { X402Network } from '../payments/networks.js';
import {
  BUNDLE_TIERS,
  FREE_BUNDLE_QUERIES,
  MAX_BUNDLE_QUERIES,
  PASS_HOURS,
  PRICES,
  bundleSavingPct,
  singleQueryPrice,
  usd,
} from '../payments/pricing.js';
import { API_VERSION } from '../core/version.js';
import { failureReasonList } from '../plugins/openapi-info.js';
import { MCP_PROTOCOL_VERSION } from '../mcp/protocol.js';
import { TOOLS } from '../mcp/tools.js';
import { NEXT_PAGE_TOOL } from '../mcp/result-pages.js';
import { DEFAULT_TOOLSETS, TOOLSETS } from '../config-toolsets.js';
import { LOGO_SVG } from '../core/brand.js';
import { plainDesc } from './describe.js';

/**
 * Discovery documents, generated from the registry and the price table so counts, prices and the
 * type list cannot drift. Pure: (base URL, descriptors) → document.
 */
export interface DiscoveryInput {
  baseUrl: string;
  sources: SourceDescriptor[];
  /** The MCP server's tools as tools/list returns them. */
  tools: McpToolInfo[];
  /** The app's OpenAPI document (paid operations are those answering 402). */
  openapi: OpenApiDoc;
  /** Where x402 payments go: the configured network and recipient. */
  x402: { network: X402Network; payTo: string };
}

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export const ATTRIBUTION =
  'Data and metadata are licensed CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/). Attribute as "Data via svc", naming the upstream given in each row\'s `source`.';

const tierLines = () => {
  let from = 1;
  return BUNDLE_TIERS.map((t) => {
    const line = `bundle ${from}-${t.maxQueries} queries: $${usd(t.price)}${from > 1 ? ` (${bundleSavingPct(t.maxQueries)}% saving)` : ''}`;
    from = t.maxQueries + 1;
    return line;
  });
};

export const priceLines = () => [
  `single query: $${usd(singleQueryPrice())} (a 1-query bundle)`,
  ...tierLines(),
  `paid backtest: $${usd(PRICES.backtest)} (up to 10,000 candles)`,
  `paid agent-context: $${usd(PRICES.agentContext)}`,
  `calib-pro claim: $${usd(PRICES.calibProClaim)} (record_claim?product=calib-pro; keeps the agent on calib-pro for 30 days)`,
  `day pass: $${usd(PRICES.dayPass)} (${PASS_HOURS.day} h, unlimited bundles)`,
  `week pass: $${usd(PRICES.weekPass)} (${PASS_HOURS.week} h, unlimited bundles)`,
];

const typeLine = (d: SourceDescriptor) => `- ${d.type} [${d.categories.join(', ')}]: q = ${d.qShape || '(empty)'}; ${plainDesc(d.desc)}`;

export function llmsTxt({ baseUrl, sources }: DiscoveryInput): string {
  return `# svc

> One HTTP/JSON data service for AI agents: ${sources.length} data types behind one query shape (type + q), normalized rows, Ed25519-signed receipts, x402 micropayments (USDC on Base).

## Start here
- Catalog: ${baseUrl}/api/v1/catalog
- Free preview: ${baseUrl}/api/data/preview?type=crypto-price&q=bitcoin
- Bundle (1-${MAX_BUNDLE_QUERIES} queries, x402): POST ${baseUrl}/api/data/bundle
- Entity resolve: ${baseUrl}/api/v1/entity/resolve?q=apple
- OpenAPI: ${baseUrl}/openapi.json · docs: ${baseUrl}/docs
- MCP server (streamable HTTP, stateless): ${baseUrl}/mcp · stdio: \`node <svc checkout>/dist/src/mcp/stdio.js\` (the \`svc-mcp\` bin of @svc-data/server, not yet on the npm registry) · descriptor: ${baseUrl}/.well-known/mcp.json
- Receipt key: ${baseUrl}/.well-known/svc-receipt-pubkey.json
- Agent rules: ${baseUrl}/AGENTS.md

## Prices (USD, paid in USDC on Base via x402)
${priceLines()
  .map((l) => `- ${l}`)
  .join('\n')}
- free: preview of any type; free bundles of at most ${FREE_BUNDLE_QUERIES} queries, one row each

## Data types (${sources.length})
${sources.map(typeLine).join('\n')}

## Licence
${ATTRIBUTION}
`;
}

export function agentsMd({ baseUrl, sources }: DiscoveryInput): string {
  return `# AGENTS.md: how to use svc

Base URL: ${baseUrl}

## Rules
1. Ask \`GET /api/v1/catalog\` once; it lists all ${sources.length} types with an example q each.
2. Try \`GET /api/data/preview?type=<type>&q=<q>\` first: it is free and returns one row plus \`_cursor\`.
3. Re-poll with \`since=<_cursor>\`: an unchanged answer is the slim \`{changed:false}\`, so you pay tokens only for what moved.
4. Batch with \`POST /api/data/bundle\` (1-${MAX_BUNDLE_QUERIES} queries). Without payment it answers HTTP 402 with an x402 challenge; pay it and retry with \`X-Payment\`. \`?free=1\` runs up to ${FREE_BUNDLE_QUERIES} queries with one row each.
5. Use \`entity=svc-ent:…\` instead of guessing tickers; resolve names with \`GET /api/v1/entity/resolve?q=\`.
6. Verify \`_receipt\` offline with the key at \`/.well-known/svc-receipt-pubkey.json\` or with \`POST /api/v1/receipt/verify\`.
7. Agents with an MCP host can use the same service as tools: \`${baseUrl}/mcp\` (streamable HTTP) or \`node <svc checkout>/dist/src/mcp/stdio.js\` (stdio; the \`svc-mcp\` bin of @svc-data/server once it is published); see \`/.well-known/mcp.json\`.
8. \`ok:false\` results carry \`error\` (${failureReasonList()}): do not retry a 4xx; back off on upstream_rate_limited. \`ok:true\` answers with \`skipped_items\` left out that many malformed items of a long upstream list.

## Prices
${priceLines()
  .map((l) => `- ${l}`)
  .join('\n')}

## Licence
${ATTRIBUTION}
`;
}

/**
 * Describes the MCP server that runs at /mcp and over stdio: the protocol version it negotiates,
 * transports, toolsets and modes, and the tools (as tools/list with ?toolsets=all returns them).
 */
export function mcpDescriptor({ baseUrl, sources, tools }: DiscoveryInput) {
  const toolsets = Object.fromEntries(TOOLSETS.map((set) => [set, TOOLS.filter((t) => t.toolset === set).map((t) => t.name)]));
  return {
    schema_version: MCP_PROTOCOL_VERSION,
    name: 'svc',
    title: 'svc data for agents',
    version: API_VERSION,
    description: `Data for agents: ${sources.length} data types behind one query shape, signed receipts, x402 payments.`,
    protocol_version: MCP_PROTOCOL_VERSION,
    transports: [
      { type: 'streamable-http', url: `${baseUrl}/mcp`, stateless: true },
      // Not on a registry yet: run it from a built checkout.
      { type: 'stdio', command: 'node', args: ['<svc checkout>/dist/src/mcp/stdio.js'], env: { SVC_BASE_URL: baseUrl } },
    ],
    toolsets: {
      default: DEFAULT_TOOLSETS,
      sets: toolsets,
      select: '/mcp?toolsets=data,chart (or all); stdio: --toolsets= or SVC_MCP_TOOLSETS',
      dynamic: 'toolsets=dynamic lists three meta-tools (list_tools, describe_tool, call_tool) that reach every tool',
      readonly: '/mcp?readonly=1; stdio: --readonly or SVC_MCP_READONLY=1: leaves out tools that record something',
    },
    authentication: {
      optional: true,
      paid_tools:
        'x402 MCP transport: unpaid, the result is isError with the x402 PaymentRequired as structuredContent; send the payment in params._meta["x402/payment"] (settlement in the result\'s _meta["x402/payment-response"]), or send `Authorization: Bearer svc-pass_…` (SVC_MCP_PASS for stdio)',
      agent_key: '`Authorization: Bearer svc-ak_…` (SVC_MCP_AGENT_KEY for stdio) for agent-authenticated tools',
    },
    capabilities: { tools: true, resources: true, prompts: true, completions: true },
    resources: ['svc://catalog', 'svc://types/{type}', 'svc://tools/{name}', 'svc://receipt-key', 'svc://entities'],
    // As tools/list lists them: every tool, then next_page, which fetches the rest of a result cut to the token budget.
    tools: [...tools, NEXT_PAGE_TOOL].map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
    openapi: `${baseUrl}/openapi.json`,
    license: ATTRIBUTION,
  };
}

export function aiPlugin({ baseUrl, sources }: DiscoveryInput) {
  return {
    schema_version: 'v1',
    name_for_human: 'svc data',
    name_for_model: 'svc',
    description_for_human: `${sources.length} kinds of live data with signed receipts.`,
    description_for_model: `Fetch normalized data of ${sources.length} types (crypto, weather, news, finance, security, sports, energy, health, legal, macro) with GET /api/data/preview?type=&q=. See /api/v1/catalog.`,
    auth: { type: 'none' },
    api: { type: 'openapi', url: `${baseUrl}/openapi.json` },
    logo_url: `${baseUrl}/logo.svg`,
    contact_email: 'ops@example.org',
    legal_info_url: `${baseUrl}/AGENTS.md`,
  };
}

/**
 * The agent card lists svc's skills and the interfaces it really has: MCP and the HTTP API. svc is no
 * A2A server, so the card carries no A2A endpoint (`url`), protocol version, interfaces or capabilities.
 */
export function agentCard({ baseUrl, sources }: DiscoveryInput) {
  return {
    name: 'svc',
    description: `Data service for agents: ${sources.length} data types behind one query shape, with Ed25519 receipts. Reach it over MCP or HTTP; it does not speak A2A.`,
    interfaces: [
      { protocol: 'mcp', transport: 'streamable-http', url: `${baseUrl}/mcp`, descriptor: `${baseUrl}/.well-known/mcp.json` },
      { protocol: 'http', url: baseUrl, openapi: `${baseUrl}/openapi.json` },
    ],
    documentationUrl: `${baseUrl}/docs`,
    version: API_VERSION,
    provider: { organization: 'svc', url: baseUrl },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: sources.map((d) => ({
      id: d.type,
      name: d.type,
      description: d.desc.replace(/`/g, ''),
      tags: [...d.categories],
      examples: d.example ? [d.example] : [],
    })),
  };
}

/** Rows of the machine-readable comparison: one per way an agent could get the data. */
export function comparison({ sources }: DiscoveryInput) {
  return [
    {
      option: 'svc bundle',
      data_types: sources.length,
      calls_for_20_queries: 1,
      cost_usd_20_queries: usd(BUNDLE_TIERS[3].price),
      signed_receipts: true,
      normalized_rows: true,
      api_keys_to_manage: 0,
    },
    {
      option: 'svc per call',
      data_types: sources.length,
      calls_for_20_queries: 20,
      cost_usd_20_queries: usd(singleQueryPrice() * 20n),
      signed_receipts: true,
      normalized_rows: true,
      api_keys_to_manage: 0,
    },
    {
      option: 'direct upstream APIs',
      data_types: sources.length,
      calls_for_20_queries: 20,
      cost_usd_20_queries: 'varies (free tiers, paid plans)',
      signed_receipts: false,
      normalized_rows: false,
      api_keys_to_manage: 'one per keyed upstream',
    },
    {
      option: 'web scraping by the agent',
      data_types: 'any',
      calls_for_20_queries: '20+',
      cost_usd_20_queries: 'tokens for raw HTML',
      signed_receipts: false,
      normalized_rows: false,
      api_keys_to_manage: 0,
    },
  ];
}

/** A small logo for manifests that want one (ai-plugin.json). */
export const logoSvg = () => LOGO_SVG;
