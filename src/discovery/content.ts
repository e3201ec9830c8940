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
import { API_VERSION } from '../plugins/openapi.js';

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

const priceLines = () => [
  `single query: $${usd(singleQueryPrice())} (a 1-query bundle)`,
  ...tierLines(),
  `paid backtest: $${usd(PRICES.backtest)} (up to 10,000 candles)`,
  `paid agent-context: $${usd(PRICES.agentContext)}`,
  `calib-pro claim: $${usd(PRICES.calibProClaim)} (record_claim?product=calib-pro; keeps the agent on calib-pro for 30 days)`,
  `day pass: $${usd(PRICES.dayPass)} (${PASS_HOURS.day} h, unlimited bundles)`,
  `week pass: $${usd(PRICES.weekPass)} (${PASS_HOURS.week} h, unlimited bundles)`,
];

const typeLine = (d: SourceDescriptor) =>
  `- ${d.type} [${d.categories.join(', ')}]: q = ${d.qShape || '(empty)'}; ${d.desc.replace(/^`[^`]*`;?\s*/, '')}`;

export function llmsTxt({ baseUrl, sources }: DiscoveryInput): string {
  return `# svc

> One HTTP/JSON data service for AI agents: ${sources.length} data types behind one query shape (type + q), normalized rows, Ed25519-signed receipts, x402 micropayments (USDC on Base).

## Start here
- Catalog: ${baseUrl}/api/v1/catalog
- Free preview: ${baseUrl}/api/data/preview?type=crypto-price&q=bitcoin
- Bundle (1-${MAX_BUNDLE_QUERIES} queries, x402): POST ${baseUrl}/api/data/bundle
- Entity resolve: ${baseUrl}/api/v1/entity/resolve?q=apple
- OpenAPI: ${baseUrl}/openapi.json · docs: ${baseUrl}/docs
- MCP server (streamable HTTP, stateless): ${baseUrl}/mcp · stdio: \`npx svc-mcp\` · descriptor: ${baseUrl}/.well-known/mcp.json
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
7. Agents with an MCP host can use the same service as tools: \`${baseUrl}/mcp\` (streamable HTTP) or \`npx svc-mcp\` (stdio); see \`/.well-known/mcp.json\`.
8. \`ok:false\` results carry \`error\` (upstream_timeout, upstream_error, upstream_rate_limited, upstream_bad_response, upstream_unavailable, upstream_key_missing, region_blocked, no_data): do not retry a 4xx; back off on upstream_rate_limited. \`ok:true\` answers with \`skipped_items\` left out that many malformed items of a long upstream list.

## Prices
${priceLines()
  .map((l) => `- ${l}`)
  .join('\n')}

## Licence
${ATTRIBUTION}
`;
}

/** Describes the MCP server that runs at /mcp and as `svc-mcp`: transports, tools (as tools/list returns them), version. */
export function mcpDescriptor({ baseUrl, sources, tools }: DiscoveryInput) {
  return {
    schema_version: '2025-06-18',
    name: 'svc',
    title: 'svc data for agents',
    version: API_VERSION,
    description: `Data for agents: ${sources.length} data types behind one query shape, signed receipts, x402 payments.`,
    protocol_version: '2025-06-18',
    transports: [
      { type: 'streamable-http', url: `${baseUrl}/mcp`, stateless: true },
      { type: 'stdio', command: 'npx', args: ['svc-mcp'], env: { SVC_BASE_URL: baseUrl } },
    ],
    authentication: {
      optional: true,
      paid_tools:
        'without payment they return the x402 challenge as a structured result; pay it and call again with `payment`, or send `Authorization: Bearer svc-pass_…` (SVC_MCP_PASS for stdio)',
      agent_key: '`Authorization: Bearer svc-ak_…` (SVC_MCP_AGENT_KEY for stdio) for agent-authenticated tools',
    },
    capabilities: { tools: true, resources: true, prompts: true },
    resources: ['svc://catalog', 'svc://types/{type}', 'svc://receipt-key', 'svc://entities'],
    tools: tools.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
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

export function agentCard({ baseUrl, sources }: DiscoveryInput) {
  return {
    protocolVersion: '0.3.0',
    name: 'svc',
    description: `Data service for agents: ${sources.length} data types behind one query shape, with Ed25519 receipts.`,
    url: `${baseUrl}/mcp`,
    // Not an A2A JSON-RPC server: agents reach svc over MCP or its HTTP API, both listed here.
    additionalInterfaces: [
      { url: `${baseUrl}/mcp`, transport: 'MCP' },
      { url: `${baseUrl}/openapi.json`, transport: 'HTTP+JSON' },
    ],
    documentationUrl: `${baseUrl}/docs`,
    version: API_VERSION,
    provider: { organization: 'svc', url: baseUrl },
    capabilities: { streaming: true, pushNotifications: false },
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

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}</style>
</head><body>${body}<footer><p><small>${ATTRIBUTION.replace(/`/g, '')}</small></p></footer></body></html>`;

export function savesMoneyPage(input: DiscoveryInput): string {
  const rows = comparison(input)
    .map(
      (r) =>
        `<tr><td>${r.option}</td><td>${r.calls_for_20_queries}</td><td>${r.cost_usd_20_queries}</td><td>${r.signed_receipts ? 'yes' : 'no'}</td></tr>`,
    )
    .join('');
  return page(
    'How svc saves agents money',
    `<h1>How svc saves agents money</h1>
<p>An agent that needs twenty facts usually makes twenty calls to twenty APIs, manages keys for each, and pays in tokens to read raw responses. svc answers all twenty in one bundle of normalized rows for $${usd(BUNDLE_TIERS[3].price)}.</p>
<ul>${priceLines()
      .map((l) => `<li>${l}</li>`)
      .join('')}</ul>
<p>Cursors make polling cheap: <code>since=&lt;cursor&gt;</code> answers <code>{"changed":false}</code> when nothing moved.</p>
<table><tr><th>option</th><th>calls for 20 queries</th><th>cost (USD)</th><th>signed</th></tr>${rows}</table>`,
  );
}

export function whyPage({ baseUrl, sources }: DiscoveryInput): string {
  const qa = [
    ['What is svc?', `One endpoint for ${sources.length} data types with one query shape.`],
    [
      'Can I prove where the data came from?',
      'Every data response carries an Ed25519 receipt over the request and the response, verifiable offline.',
    ],
    ['Do I need an account?', `No. Previews are free; bundles are paid per call with x402 (USDC on Base) or with a day or week pass.`],
    [
      'What happens when an upstream fails?',
      'You get ok:false with a reason inside a deadline, never a hang; fallback upstreams answer where they exist.',
    ],
    ['Where do I start?', `${baseUrl}/api/v1/catalog and ${baseUrl}/llms.txt.`],
  ];
  return page('Why agents pick svc', `<h1>Why agents pick svc</h1>${qa.map(([q, a]) => `<h2>${q}</h2><p>${a}</p>`).join('')}`);
}

export function landingPage({ baseUrl, sources }: DiscoveryInput): string {
  const list = sources
    .map(
      (d) =>
        `<li><a href="${baseUrl}/api/data/preview?type=${d.type}&amp;q=${encodeURIComponent(d.example)}"><code>${d.type}</code></a> ${d.desc.replace(/`[^`]*`;?\s*/, '')}</li>`,
    )
    .join('');
  return page(
    'svc: data for AI agents',
    `<h1>svc</h1><p>${sources.length} data types for AI agents behind one query shape, with signed receipts.</p>
<p><a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/mcp">MCP server</a> · <a href="/llms.txt">llms.txt</a> · <a href="/AGENTS.md">AGENTS.md</a> · <a href="/how-svc-saves-agents-money">pricing</a></p>
<ul>${list}</ul>`,
  );
}

/** A small logo for manifests that want one (ai-plugin.json). */
export const logoSvg = () =>
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="svc"><rect width="64" height="64" rx="12" fill="#1f3a5f"/><text x="32" y="40" font-family="system-ui,sans-serif" font-size="22" fill="#fff" text-anchor="middle">svc</text></svg>';
