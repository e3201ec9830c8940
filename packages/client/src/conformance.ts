import { catalogChecks } from './conformance-catalog.js';
import { mcpChecks, mcpSessionHistory } from './conformance-mcp.js';
import { auditPages, paidPages, sessionHistory } from './conformance-pages.js';
import { retrySafety } from './conformance-payments.js';
import {
  CONFORMANCE_PHASES,
  Run,
  type CatalogEntry,
  type ConformanceOptions,
  type ConformancePhase,
  type ConformanceReport,
} from './conformance-run.js';

export { CONFORMANCE_PHASES } from './conformance-run.js';
export type { ConformanceOptions, ConformancePhase, ConformanceReport, ConformanceRow } from './conformance-run.js';

/**
 * The conformance check of issue 35 (`svc conformance <url>`, `npm run conformance -- --url <url>`): it talks to any
 * svc over HTTP and MCP as an agent would (backing off on 429 by Retry-After) and holds every answer to the rules in
 * conformance-rules.ts: every type's catalog example and worst-case inputs, token counts, freshness per row, headers
 * on every 4xx/5xx, and retry safety with a test payment where the instance accepts test payments (its x402 recipient
 * is the zero address, so nothing a throwaway wallet signs can ever settle). One row per rule; any miss fails.
 *
 * The check runs in phases that need nothing from each other but the catalog, so callers may run them at the same
 * time as separate clients (`phases`, then `mergeReports`); one run takes them one after the other.
 */

type Phase = (run: Run, types: CatalogEntry[]) => Promise<void>;

const PHASES: Record<ConformancePhase, Phase> = {
  /** Every catalog example, the worst-case free inputs, refusals and GET /api/v1/limits over HTTP. */
  catalog: catalogChecks,
  /** The largest answers in pages over HTTP: a tool audit of a 200-tool server, a paid bundle and a paid backtest. */
  pages: async (run, types) => {
    run.log('HTTP: a tool audit of a 200-tool server in pages');
    await auditPages(run);
    run.log('HTTP: a paid bundle of 20 types and a paid backtest in pages');
    await paidPages(run, types);
  },
  /** A session history of many long events, read in pages over HTTP and through the MCP tool. */
  sessions: async (run) => {
    run.log('HTTP and MCP: a session history of many long events');
    const sessionId = await sessionHistory(run);
    if (sessionId) await mcpSessionHistory(run, sessionId);
  },
  /** Ten concurrent retries of one test payment over HTTP and MCP, and Idempotency-Key. */
  payments: retrySafety,
  /** The default tool list, every catalog example and the worst cases as MCP tool calls. */
  mcp: mcpChecks,
};

export async function runConformance(url: string, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const run = new Run(url, options);
  const catalog = (await run.http('GET', '/api/v1/catalog')).body as { data_types: CatalogEntry[] };
  for (const phase of options.phases ?? CONFORMANCE_PHASES) await PHASES[phase](run, catalog.data_types);
  return run.report();
}

/** One report of several runs against one service (phases run at the same time): their rows by rule, summed. */
export function mergeReports(reports: readonly ConformanceReport[]): ConformanceReport {
  const rows = new Map<string, ConformanceReport['rows'][number]>();
  for (const row of reports.flatMap((r) => r.rows)) {
    const key = `${row.area}\n${row.rule}`;
    const merged = rows.get(key);
    if (merged) rows.set(key, { ...merged, seen: merged.seen + row.seen, misses: [...merged.misses, ...row.misses] });
    else rows.set(key, { ...row, misses: [...row.misses] });
  }
  const largest = reports.map((r) => r.largest).reduce((a, b) => (b.tokens > a.tokens ? b : a), { tokens: 0, where: '' });
  return { url: reports[0]?.url ?? '', rows: [...rows.values()], misses: reports.reduce((n, r) => n + r.misses, 0), largest };
}

/** The report as a table: one line per rule, its answers and misses, the first misses under it. */
export function formatReport(report: ConformanceReport): string {
  const lines = [`svc conformance: ${report.url}`, ''];
  const width = Math.max(...report.rows.map((r) => r.rule.length + (r.needs ? r.needs.length + 3 : 0)), 10);
  lines.push(`${'area'.padEnd(6)} ${'rule'.padEnd(width)} ${'answers'.padStart(7)} ${'misses'.padStart(6)}  result`);
  for (const row of report.rows) {
    const rule = row.needs ? `${row.rule} [${row.needs}]` : row.rule;
    lines.push(
      `${row.area.padEnd(6)} ${rule.padEnd(width)} ${String(row.seen).padStart(7)} ${String(row.misses.length).padStart(6)}  ${row.misses.length ? 'MISS' : 'ok'}`,
    );
    for (const miss of row.misses.slice(0, 3)) lines.push(`       - ${miss}`);
    if (row.misses.length > 3) lines.push(`       … ${row.misses.length - 3} more`);
  }
  lines.push('', `largest answer: ${report.largest.tokens} o200k tokens (${report.largest.where})`);
  lines.push(`${report.misses} miss${report.misses === 1 ? '' : 'es'}; [items 1-2] marks rules of issue 35's freshness and budget items`);
  return lines.join('\n');
}
