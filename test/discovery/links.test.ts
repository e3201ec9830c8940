import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PACKAGE_VERSION } from '../helpers/package-version.js';

/** Every discovery file, and every link in it, must lead somewhere real. */
const FILES = [
  '/',
  '/llms.txt',
  '/AGENTS.md',
  '/.well-known/x402.json',
  '/.well-known/mcp.json',
  '/.well-known/ai-plugin.json',
  '/.well-known/agent-card.json',
  '/how-svc-saves-agents-money',
  '/svc/comparison.json',
  '/svc/why-agents-pick-svc',
];
const BASE = 'http://svc.test';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** GET links on this service (absolute, or root-relative hrefs) as paths with their query; `POST <url>` mentions are not links. */
function linksIn(text: string): string[] {
  const absolute = [...text.matchAll(/(POST )?http:\/\/svc\.test(\/[^\s"'<>`)\]]*)/g)].filter((m) => !m[1]).map((m) => m[2]!);
  const relative = [...text.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]!);
  return [...absolute, ...relative].map((link) => link.replace(/&amp;/g, '&').replace(/[.,;:]+$/, ''));
}

describe('discovery links', () => {
  it('every link in every discovery file answers 200 (GET), templates filled with an example', async () => {
    const checked = new Map<string, number>();
    for (const file of FILES) {
      const res = await t.app.inject(file);
      expect(res.statusCode, file).toBe(200);
      const paid =
        file === '/.well-known/x402.json'
          ? new Set<string>(res.json().endpoints.map((e: { resource: string }) => e.resource.replace(BASE, '')))
          : new Set<string>();
      for (const link of linksIn(res.body)) {
        if (paid.has(link)) continue; // paid resources are checked below, with their method
        const url = link.replace('{type}', 'crypto-price');
        if (!checked.has(url)) checked.set(url, (await t.app.inject(url)).statusCode);
        expect(checked.get(url), `${file} → ${url}`).toBe(200);
      }
    }
    // The landing page alone links a preview of every type; the descriptors add /mcp, /openapi.json, /docs, /logo.svg, …
    expect(checked.size).toBeGreaterThan(t.deps.registry.types().length + 8);
    for (const expected of ['/mcp', '/openapi.json', '/docs', '/logo.svg', '/.well-known/svc-receipt-pubkey.json'])
      expect([...checked.keys()], expected).toContain(expected);
  }, 60_000);

  it('every paid resource in x402.json exists with its method and asks for payment', async () => {
    const { endpoints } = (await t.app.inject('/.well-known/x402.json')).json() as { endpoints: { method: string; resource: string }[] };
    const calls: Record<string, { url: string; payload?: unknown }> = {
      '/api/data/bundle': { url: '/api/data/bundle', payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] } },
      '/api/v1/backtest': { url: '/api/v1/backtest?type=crypto-price&q=SOL&from=1&to=2' },
      '/api/v1/agent-context': { url: '/api/v1/agent-context?goal=should%20I%20buy%20ETH' },
      '/api/v1/calib/record_claim': {
        url: '/api/v1/calib/record_claim?product=calib-pro',
        payload: {
          agent_id: 'test:links',
          kind: 'k',
          predicted_p: 0.5,
          payload: {},
          outcome_resolver: { type: 'manual', config: {} },
          ttl_hours: 1,
        },
      },
    };
    for (const endpoint of endpoints) {
      const path = endpoint.resource.replace(BASE, '');
      const call = calls[path] ?? { url: path };
      const res = await t.app.inject({
        method: endpoint.method as 'GET',
        url: call.url,
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${endpoint.method} ${path}`).not.toBe(404);
      if (endpoint.method === 'POST') expect(res.statusCode, `${endpoint.method} ${path}`).toBe(402);
    }
  });

  it('mcp.json describes the real server: transports, version and the tools tools/list returns', async () => {
    const mcp = (await t.app.inject('/.well-known/mcp.json')).json();
    expect(mcp.version).toBe(PACKAGE_VERSION);
    // No install command for a package name svc does not own: stdio runs from a built checkout.
    expect(mcp.transports).toEqual([
      { type: 'streamable-http', url: `${BASE}/mcp`, stateless: true },
      { type: 'stdio', command: 'node', args: ['<svc checkout>/dist/src/mcp/stdio.js'], env: { SVC_BASE_URL: BASE } },
    ]);
    const listed = await t.app.inject({
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
      url: '/mcp?toolsets=all',
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(listed.statusCode).toBe(200);
    const tools = listed.json().result.tools as { name: string; inputSchema: unknown }[];
    expect(mcp.tools.map((tool: { name: string }) => tool.name)).toEqual(tools.map((tool) => tool.name));
    expect(mcp.tools[0].inputSchema).toEqual(tools[0]!.inputSchema);
    const card = (await t.app.inject('/.well-known/agent-card.json')).json();
    // Only what svc implements: MCP and HTTP, no A2A endpoint, protocol version or interface.
    expect(card.interfaces.map((i: { protocol: string }) => i.protocol)).toEqual(['mcp', 'http']);
    expect(card.interfaces[0].url).toBe(`${BASE}/mcp`);
    for (const a2aField of ['url', 'protocolVersion', 'preferredTransport', 'additionalInterfaces', 'capabilities'])
      expect(card, a2aField).not.toHaveProperty(a2aField);
    const llms = (await t.app.inject('/llms.txt')).body;
    expect(llms).toContain(`${BASE}/mcp`);
    expect(llms).toContain(`${BASE}/openapi.json`);
  });
});
