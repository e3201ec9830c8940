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
import { FAVICON_LINK, FAVICON_PATH, LOGO_SVG, PAGE_CSS, siteNav } from '../core/brand.js';
import { escapeHtml, plainDesc } from './describe.js';

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

const page = (title: string, body: string, current?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${FAVICON_LINK}<style>${PAGE_CSS}</style>
</head><body>${siteNav(current)}<main>${body}</main><footer><p><small>${ATTRIBUTION.replace(/`/g, '')}</small></p></footer></body></html>`;

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
    '/how-svc-saves-agents-money',
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
  return page(
    'Why agents pick svc',
    `<h1>Why agents pick svc</h1>${qa.map(([q, a]) => `<h2>${q}</h2><p>${a}</p>`).join('')}`,
    '/svc/why-agents-pick-svc',
  );
}

export function landingPage({ baseUrl, sources }: DiscoveryInput): string {
  const preview = (d: SourceDescriptor) => `/api/data/preview?type=${d.type}&amp;q=${encodeURIComponent(d.example)}`;
  const list = sources
    .map(
      (d) =>
        `<li><a href="${preview(d)}"><code>${d.type}</code></a> — ${escapeHtml(plainDesc(d.desc))} <span class="q">q: ${d.qShape ? `<code>${escapeHtml(d.qShape)}</code>` : 'none'}</span></li>`,
    )
    .join('');
  return page(
    'svc: data for AI agents',
    `<h1><img src="${FAVICON_PATH}" alt="" width="40" height="40">svc</h1>
<p><strong>svc is a self-hostable data service for AI agents.</strong> It answers ${sources.length} data types — crypto, markets, weather, news, security, health, filings and more — behind one query shape (<code>type</code> plus a free-text <code>q</code>), as normalized rows with an Ed25519-signed receipt an agent can verify offline. Agents reach it over HTTP, with the MCP server or the client SDK; paid calls use x402 micropayments or a pass.</p>
<h2>Try it</h2>
<p>No account or key is needed for a preview. Ask for the price of bitcoin:</p>
<pre><code>curl '${baseUrl}/api/data/preview?type=crypto-price&amp;q=bitcoin'</code></pre>
<p>Up to five queries in one free bundle, one row each:</p>
<pre><code>curl -X POST ${baseUrl}/api/data/bundle \\
  -H 'content-type: application/json' \\
  -d '{"free": true,
       "queries": [{"type": "weather", "q": "52.52,13.41"},
                   {"type": "news-hn-top"}]}'</code></pre>
<p>Then read the <a href="/docs">API reference</a> (try any call from the page), the <a href="/openapi.json">OpenAPI document</a>, <a href="/llms.txt">llms.txt</a> and <a href="/AGENTS.md">AGENTS.md</a> for agents, the <a href="/mcp">MCP endpoint</a>, the <a href="/status">status of each upstream</a> and the <a href="/olympics">model olympics</a>.</p>
<h2>The ${sources.length} data types</h2>
<p>Each name opens a free preview of its example query.</p>
<ul class="types">${list}</ul>`,
    '/',
  );
}

/** A small logo for manifests that want one (ai-plugin.json). */
export const logoSvg = () => LOGO_SVG;
