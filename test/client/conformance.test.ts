import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  mergeReports,
  runConformance,
  type ConformancePhase,
  type ConformanceReport,
} from '../../packages/client/src/conformance.js';
import { startDemoServer } from '../../scripts/conformance.js';

/**
 * Issue 35, item 5: the conformance check runs against the demo (as `npm run conformance` does) over HTTP and MCP, with
 * the demo's own rate limits (its 429s are waited out by Retry-After and checked) and its test payments.
 * The rules of items 1 and 2 (freshness on every row, token budgets, the default tool list's size) are marked
 * [items 1-2] and checked by the second test.
 *
 * One client taking the phases one after the other spends two minutes waiting out 429s (about 350 requests, MCP tool
 * calls counting twice, against an anonymous limit of 120 a minute). Here every phase runs at once, as two clients
 * with a limit each (the demo trusts X-Forwarded-For from the loopback, so each client is its own address). The MCP
 * client also takes the catalog and payment phases: about 200 requests, so that it runs out of its 120 however slow the
 * machine and meets 429s over HTTP and MCP and rate-limited tool results; the other client's pages and sessions (about
 * 140) finish within its own limit's wait.
 */
const MINUTES = 60_000;
const CLIENTS: Record<string, ConformancePhase[]> = {
  '198.51.100.1': ['mcp', 'catalog', 'payments'],
  '198.51.100.2': ['pages', 'sessions'],
};

/** A fetch that comes from `address`, as a proxy the demo trusts says. */
const fetchFrom =
  (address: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', address);
    return fetch(input, { ...init, headers });
  };

let demo: Awaited<ReturnType<typeof startDemoServer>>;
let report: ConformanceReport;
beforeAll(async () => {
  demo = await startDemoServer({ SVC_TRUST_PROXY: '127.0.0.1' });
  const runs = Object.entries(CLIENTS).flatMap(([address, phases]) =>
    phases.map((phase) => runConformance(demo.url, { phases: [phase], fetch: fetchFrom(address) })),
  );
  report = mergeReports(await Promise.all(runs));
}, 15 * MINUTES);
afterAll(() => demo?.close());

describe('svc conformance against the demo', () => {
  it('passes every rule of items 3-5 (limits, retries) with zero misses, having met every kind of answer it checks', () => {
    const own = report.rows.filter((r) => !r.needs);
    expect(
      own.filter((r) => r.misses.length),
      formatReport(report),
    ).toEqual([]);
    const rules = own.map((r) => r.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'RateLimit-Policy and RateLimit on every answer',
        'house error body and X-Request-Id on every 4xx/5xx',
        '402: spec fields, price, buys, alternatives',
        'ten concurrent retries of one payment: one answer (same bytes, same receipt)',
        'Idempotency-Key: same key, another body → 422',
        'MCP: ten concurrent retries of one payment: one answer',
        'tool result _meta carries the rate-limit numbers',
      ]),
    );
    expect(report.rows.find((r) => r.area === 'http' && r.rule === 'catalog example answers 200')?.seen).toBeGreaterThanOrEqual(43);
    const seen = (area: string, rule: string) => report.rows.find((r) => r.area === area && r.rule === rule)?.seen ?? 0;
    const met429 = (area: string) => seen(area, 'Retry-After and the limit in details on every 429/503');
    const met = { http: met429('http'), mcp: met429('mcp'), tool: seen('mcp', 'a rate-limited tool result names Retry-After in _meta') };
    expect(Math.min(...Object.values(met)), `429s met: ${JSON.stringify(met)}\n${formatReport(report)}`).toBeGreaterThan(0);
  });

  it('passes the rules of items 1-2 (freshness per row, token budgets, tool list size) with zero misses', () => {
    const fresh = report.rows.filter((r) => r.needs);
    expect(fresh.length).toBeGreaterThan(0);
    expect(
      fresh.filter((r) => r.misses.length),
      formatReport(report),
    ).toEqual([]);
  });
});
