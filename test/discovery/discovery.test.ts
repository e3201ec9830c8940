import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject(url);

describe('discovery files', () => {
  it.each([
    ['/', 'text/html'],
    ['/llms.txt', 'text/plain'],
    ['/AGENTS.md', 'text/markdown'],
    ['/.well-known/x402.json', 'application/json'],
    ['/.well-known/x402', 'application/json'],
    ['/.well-known/mcp.json', 'application/json'],
    ['/.well-known/ai-plugin.json', 'application/json'],
    ['/.well-known/agent-card.json', 'application/json'],
    ['/how-svc-saves-agents-money', 'text/html'],
    ['/svc/comparison.json', 'application/json'],
    ['/svc/why-agents-pick-svc', 'text/html'],
  ])('%s is served as %s with the CC-BY-4.0 attribution where it has prose', async (url, type) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    if (!url.endsWith('.json') || url.includes('x402') || url.includes('mcp')) expect(res.body).toContain('CC-BY-4.0');
  });

  it('counts, prices and types come from the registry and the price table', async () => {
    const llms = (await get('/llms.txt')).body;
    expect(llms).toContain('43 data types');
    expect(llms).toContain('bundle 3-5 queries: $0.0035 (30% saving)');
    expect(llms).toContain('bundle 6-10 queries: $0.005 (50% saving)');
    expect(llms).toContain('bundle 11-20 queries: $0.008 (60% saving)');
    expect(llms).toContain('day pass: $0.99');
    expect(llms).toContain('- economic-indicator [economics, finance, macro, fred]: q = <series_code>');
    const x402 = (await get('/.well-known/x402.json')).json();
    expect(x402.endpoints[0].tiers).toEqual([
      { max_queries: 2, amount: '1000' },
      { max_queries: 5, amount: '3500' },
      { max_queries: 10, amount: '5000' },
      { max_queries: 20, amount: '8000' },
    ]);
    expect((await get('/.well-known/mcp.json')).json().tools.map((tool: { name: string }) => tool.name)).toContain('query');
    expect((await get('/.well-known/agent-card.json')).json().skills).toHaveLength(43);
    const comparison = (await get('/svc/comparison.json')).json();
    expect(Array.isArray(comparison)).toBe(true);
    expect(comparison[0]).toMatchObject({ option: 'svc bundle', cost_usd_20_queries: '0.008' });
    expect(comparison[1]).toMatchObject({ option: 'svc per call', cost_usd_20_queries: '0.02' });
  });

  it('advertises as the single-query price exactly what a 402 for one query asks', async () => {
    const advertised = (await get('/.well-known/x402.json')).json().per_call_amount;
    const challenge = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle',
      payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] },
    });
    expect(challenge.statusCode).toBe(402);
    expect(challenge.json().invoice.amount).toBe(advertised);
    expect((await get('/llms.txt')).body).toContain(`single query: $${Number(advertised) / 1e6} (a 1-query bundle)`);
  });

  it('the catalog matches the spec table and reports the real count', async () => {
    const catalog = (await get('/api/v1/catalog')).json();
    expect(catalog.count).toBe(43);
    expect(catalog.landing).toBe('http://svc.test/');
    expect(catalog.data_types.find((d: { type: string }) => d.type === 'energy-oil')).toMatchObject({
      categories: ['energy', 'commodities', 'finance'],
      desc: '`<benchmark_name>` (crude benchmarks WTI and Brent); daily spot series',
    });
    expect(catalog.data_types.find((d: { type: string }) => d.type === 'crypto-trending')).toMatchObject({
      example: '',
      desc: expect.stringContaining('empty; the coins most searched on CoinGecko over the last 24 hours'),
    });
  });
});
