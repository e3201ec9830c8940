import type { SourceDescriptor } from '../sources/define.js';
import { BUNDLE_TIERS, usd } from '../payments/pricing.js';
import { FAVICON_LINK, FAVICON_PATH, PAGE_CSS, siteNav } from '../core/brand.js';
import { ATTRIBUTION, comparison, priceLines, type DiscoveryInput } from './content.js';
import { escapeHtml, plainDesc } from './describe.js';

/** The discovery pages written for people (HTML), from the same registry and price table as the documents for agents. */

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
