import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  MCP_TOKEN_BUDGET,
  TOOL_LIST_BUDGET_BYTES,
  errorBody,
  paymentRequired,
  rateLimitFields,
  resultBudget,
  resultLimitsMeta,
  retryAfter,
  rowFreshness,
  rowsOf,
  tokensOf,
  type Exchange,
  type Miss,
} from './conformance-rules.js';
import { parseChallenge, signPayment } from './x402.js';
import { AUDIT_MANIFEST, auditPages, paidPages, sessionHistory } from './conformance-pages.js';

/**
 * The conformance check of issue 35 (`svc conformance <url>`, `npm run conformance -- --url <url>`): it talks to any
 * svc over HTTP and MCP as an agent would (backing off on 429 by Retry-After) and holds every answer to the rules in
 * conformance-rules.ts: every type's catalog example and worst-case inputs, token counts, freshness per row, headers
 * on every 4xx/5xx, and retry safety with a test payment where the instance accepts test payments (its x402 recipient
 * is the zero address, so nothing a throwaway wallet signs can ever settle). One row per rule; any miss fails.
 */

export interface ConformanceRow {
  area: 'http' | 'mcp' | 'retry';
  rule: string;
  /** Set on the rules of issue 35's items 1 and 2 (freshness, budgets). */
  needs?: 'items 1-2';
  seen: number;
  misses: string[];
}

export interface ConformanceReport {
  url: string;
  rows: ConformanceRow[];
  misses: number;
  /** The largest answer in o200k tokens, and where. */
  largest: { tokens: number; where: string };
}

export interface ConformanceOptions {
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Longest total wait on 429s before a request counts as failed. */
  maxBackoffS?: number;
}

const ZERO_ADDRESS = /^0x0{40}$/i;
const FRESH = 'items 1-2' as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Run {
  readonly rows = new Map<string, ConformanceRow>();
  /** One throwaway wallet per run: an Idempotency-Key is scoped to the payer, so its retries pay from the same one. */
  readonly wallet = privateKeyToAccount(generatePrivateKey());
  largest = { tokens: 0, where: '' };

  constructor(
    readonly base: string,
    readonly options: ConformanceOptions,
  ) {}

  check(area: ConformanceRow['area'], rule: string, target: string, miss: Miss, needs?: ConformanceRow['needs']): void {
    const key = `${area}\n${rule}`;
    const row = this.rows.get(key) ?? { area, rule, ...(needs ? { needs } : {}), seen: 0, misses: [] };
    row.seen += 1;
    if (miss !== undefined) row.misses.push(`${target}: ${miss}`);
    this.rows.set(key, row);
  }

  measure(where: string, value: unknown): number {
    const tokens = tokensOf(value);
    if (tokens > this.largest.tokens) this.largest = { tokens, where };
    return tokens;
  }

  /** One HTTP exchange, waiting out 429s by Retry-After (each 429 is checked too), then checked against the header rules. */
  async http(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Exchange> {
    let waited = 0;
    for (;;) {
      const res = await fetch(`${this.base}${path}`, {
        method,
        headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await res.text();
      const exchange: Exchange = { method, path: path.split('?')[0]!, status: res.status, headers: res.headers, body: parse(text) };
      this.rules('http', exchange);
      const wait = Number(res.headers.get('retry-after') ?? 1);
      if (res.status !== 429 || waited + wait > (this.options.maxBackoffS ?? 120)) return exchange;
      waited += wait;
      await sleep(wait * 1000);
    }
  }

  rules(area: 'http' | 'mcp', x: Exchange): void {
    const target = `${x.method} ${x.path} ${x.status}`;
    this.check(area, 'RateLimit-Policy and RateLimit on every answer', target, rateLimitFields(x));
    if (x.status >= 400) this.check(area, 'house error body and X-Request-Id on every 4xx/5xx', target, errorBody(x));
    if (x.status === 429 || x.status === 503)
      this.check(area, 'Retry-After and the limit in details on every 429/503', target, retryAfter(x));
    if (x.status === 402) this.check(area, '402: spec fields, price, buys, alternatives', target, paymentRequired(x));
  }

  /** A fetch for the MCP transport that checks a refused POST (429 and others) and waits out a 429 as `http` does. */
  readonly mcpFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    for (let waited = 0; ;) {
      const res = await fetch(input, init);
      if (res.status < 400) return res;
      const text = await res.clone().text();
      const rpc = parse(text) as { error?: { message?: string; data?: Record<string, unknown> } } | undefined;
      const data = rpc?.error?.data ?? {};
      this.rules('mcp', {
        method: init?.method ?? 'GET',
        path: '/mcp',
        status: res.status,
        headers: res.headers,
        body: { ...data, message: rpc?.error?.message },
      });
      const wait = Number(res.headers.get('retry-after') ?? 1);
      if (res.status !== 429 || waited + wait > (this.options.maxBackoffS ?? 120)) return res;
      waited += wait;
      await sleep(wait * 1000);
    }
  };
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

interface CatalogEntry {
  type: string;
  example: string;
}

/** The worst-case inputs of issue 35, item 2, that need no payment: the largest free answers an agent can ask for. */
function worstCases(types: CatalogEntry[], nowS: number) {
  const five = types.slice(0, 5).map((t) => ({ type: t.type, q: t.example }));
  return [
    { method: 'GET', path: '/api/v1/entity/list?limit=200' },
    { method: 'POST', path: '/api/data/bundle?free=1', body: { queries: five } },
    { method: 'GET', path: `/api/v1/backtest?type=crypto-price&q=BTC&interval=1m&from=${nowS - 30 * 86_400}&to=${nowS}&free=1` },
    { method: 'GET', path: `/api/v1/agent-context?goal=${encodeURIComponent('should I buy BTC this week?')}&free=1` },
    { method: 'GET', path: '/api/v1/snapshot' },
  ];
}

/** Deliberate refusals: every one must carry the house body and the headers. */
const REFUSALS = [
  { method: 'GET', path: '/api/v1/no-such-route' },
  { method: 'GET', path: '/api/data/preview?type=no-such-type' },
  { method: 'POST', path: '/api/data/bundle', body: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] } },
  { method: 'GET', path: '/api/v1/backtest?type=crypto-price&q=BTC&from=1&to=2&tier=paid' },
];

export async function runConformance(url: string, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const run = new Run(url.replace(/\/+$/, ''), options);
  const log = options.log ?? (() => undefined);
  const catalog = (await run.http('GET', '/api/v1/catalog')).body as { data_types: CatalogEntry[] };
  const types = catalog.data_types;

  log(`HTTP: ${types.length} catalog examples`);
  for (const { type, example } of types) {
    const x = await run.http('GET', `/api/data/preview?type=${type}&q=${encodeURIComponent(example)}`);
    run.measure(`GET preview ${type}`, x.body);
    run.check('http', 'catalog example answers 200', type, x.status === 200 ? undefined : `HTTP ${x.status}`);
    for (const row of rowsOf(x.body)) run.check('http', 'freshness fields on every row', type, rowFreshness(row), FRESH);
  }
  const nowS = Math.floor(Date.now() / 1000);
  log('HTTP: worst-case inputs and refusals');
  for (const c of worstCases(types, nowS)) {
    const x = await run.http(c.method, c.path, { body: c.body });
    run.check('http', 'worst-case input answers 200', c.path, x.status === 200 ? undefined : `HTTP ${x.status}`);
    run.measure(`${c.method} ${c.path.split('?')[0]}`, x.body);
    for (const row of rowsOf(x.body)) run.check('http', 'freshness fields on every row', c.path, rowFreshness(row), FRESH);
  }
  for (const c of REFUSALS) await run.http(c.method, c.path, { body: c.body });
  const limits = await run.http('GET', '/api/v1/limits');
  const standing = limits.body as Record<string, unknown>;
  run.check('http', 'GET /api/v1/limits: tier, rate, pass, spend_today', '/api/v1/limits', limitsMiss(standing));

  log('HTTP: a tool audit of a 200-tool server in pages');
  await auditPages(run);
  log('HTTP: a session history of many long events');
  const sessionId = await sessionHistory(run);
  await retrySafety(run, log);
  log('HTTP: a paid bundle of 20 types and a paid backtest in pages');
  await paidPages(run, (method, path, body) => testPayment(run, { method, path, body }), types);
  await mcpChecks(run, types, log, sessionId);
  const rows = [...run.rows.values()];
  return { url, rows, misses: rows.reduce((n, r) => n + r.misses.length, 0), largest: run.largest };
}

function limitsMiss(body: Record<string, unknown>): Miss {
  const missing = ['tier', 'rate', 'pass', 'spend_today'].filter((k) => !(k in body));
  return missing.length ? `lacks ${missing.join(', ')}` : undefined;
}

const BUNDLE = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const bundleRequest = (body: unknown) => ({ method: 'POST', path: '/api/data/bundle', body });

/** A test payment for one bundle, when the instance accepts test payments (its recipient is the zero address). */
async function testPayment(run: Run, request: { method: string; path: string; body?: unknown } = bundleRequest(BUNDLE)) {
  // Through `http`: a 429 at this point is waited out, not taken for an instance without test payments.
  const unpaid = await run.http(request.method, request.path, { body: request.body });
  const challenge = parseChallenge(unpaid.headers, unpaid.body);
  const option = challenge?.options.find((o) => o.version === 1) ?? challenge?.options[0];
  if (!challenge || !option || !ZERO_ADDRESS.test(option.payTo)) return undefined;
  return signPayment(run.wallet, challenge, option);
}

/** Ten concurrent retries of one payment get one answer; an Idempotency-Key returns it for a new payment, 422 for another body. */
async function retrySafety(run: Run, log: (line: string) => void): Promise<void> {
  const payment = await testPayment(run);
  if (!payment) {
    log('retry safety: the instance accepts no test payments (its x402 recipient is not the zero address); skipped');
    return;
  }
  log('retry safety: ten concurrent retries of one test payment');
  const pay = (headers: Record<string, string>, body: unknown = BUNDLE) => run.http('POST', '/api/data/bundle', { body, headers });
  const answers = await Promise.all(Array.from({ length: 10 }, () => pay({ [payment.name]: payment.value })));
  const same = answers.every((a) => a.status === 200 && JSON.stringify(a.body) === JSON.stringify(answers[0]!.body));
  run.check(
    'retry',
    'ten concurrent retries of one payment: one answer (same bytes, same receipt)',
    'POST /api/data/bundle',
    same ? undefined : `statuses ${answers.map((a) => a.status).join(',')}`,
  );

  const key = `conformance-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const first = await pay({ [payment.name]: (await testPayment(run))!.value, 'idempotency-key': key });
  const again = await pay({ [payment.name]: (await testPayment(run))!.value, 'idempotency-key': key });
  run.check(
    'retry',
    'Idempotency-Key: same key and body, new payment → the stored answer',
    key,
    JSON.stringify(again.body) === JSON.stringify(first.body) ? undefined : 'another answer',
  );
  // A payment made for the other body (a v2 payment echoes its request's requirements), so only the key is wrong.
  const otherBody = { queries: [{ type: 'forex', q: 'EUR:USD' }] };
  const other = await pay({ [payment.name]: (await testPayment(run, bundleRequest(otherBody)))!.value, 'idempotency-key': key }, otherBody);
  run.check('retry', 'Idempotency-Key: same key, another body → 422', key, other.status === 422 ? undefined : `HTTP ${other.status}`);
}

async function mcpClient(run: Run, query = ''): Promise<Client> {
  const client = new Client({ name: 'svc-conformance', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${run.base}/mcp${query}`), { fetch: run.mcpFetch }));
  return client;
}

async function mcpChecks(run: Run, types: CatalogEntry[], log: (line: string) => void, sessionId?: string): Promise<void> {
  log('MCP: the default tool list, every catalog example, worst cases');
  const listing = await mcpClient(run);
  const listed = await listing.listTools();
  const bytes = new TextEncoder().encode(JSON.stringify(listed)).length;
  run.check(
    'mcp',
    `default tools/list ≤ ${TOOL_LIST_BUDGET_BYTES} bytes`,
    'tools/list',
    bytes <= TOOL_LIST_BUDGET_BYTES ? undefined : `${bytes} bytes`,
    FRESH,
  );
  await listing.close();

  const client = await mcpClient(run, '?toolsets=all');
  const call = async (name: string, args: Record<string, unknown>, target: string, meta?: Record<string, unknown>) => {
    let result = await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
    // A tool call whose route was rate limited: back off by the _meta numbers, as an agent framework would.
    for (let waited = 0; rateLimited(result) && waited < (run.options.maxBackoffS ?? 120);) {
      const wait = retryAfterOf(result);
      run.check(
        'mcp',
        'a rate-limited tool result names Retry-After in _meta',
        target,
        wait === undefined ? 'no retry_after_s' : undefined,
      );
      waited += wait ?? 1;
      await sleep((wait ?? 1) * 1000);
      result = await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
    }
    run.measure(`tools/call ${target}`, result);
    run.check('mcp', `tool result ≤ ${MCP_TOKEN_BUDGET} o200k tokens`, target, resultBudget(result), FRESH);
    run.check('mcp', 'tool result _meta carries the rate-limit numbers', target, resultLimitsMeta(result));
    for (const row of rowsOf(result.structuredContent)) run.check('mcp', 'freshness fields on every row', target, rowFreshness(row), FRESH);
    return result;
  };
  for (const { type, example } of types) {
    const result = await call('query', { type, q: example }, `query ${type}`);
    run.check('mcp', 'catalog example answers', type, result.isError ? JSON.stringify(result.structuredContent).slice(0, 120) : undefined);
  }
  const five = types.slice(0, 5).map((t) => ({ type: t.type, q: t.example }));
  await call('bundle', { queries: five, free: true }, 'bundle free ×5');
  const nowS = Math.floor(Date.now() / 1000);
  await call(
    'backtest',
    { type: 'crypto-price', q: 'BTC', interval: '1m', from: nowS - 30 * 86_400, to: nowS, free: '1' },
    'backtest 30 d',
  );
  await call('agent_context', { goal: 'should I buy BTC this week?', free: '1' }, 'agent_context');
  // The largest inputs of the tools whose answers can run long: every page, reached through next_page, is checked.
  const paged = async (name: string, args: Record<string, unknown>) => {
    for (let result = await call(name, args, name); ;) {
      const next = (result.structuredContent as { _page?: { next?: string } } | undefined)?._page?.next;
      if (!next) return;
      result = await call('next_page', { cursor: next }, `${name} (next_page)`);
    }
  };
  await paged('tool_audit', { manifest: AUDIT_MANIFEST });
  if (sessionId) await paged('session_history', { session_id: sessionId });

  const payment = await testPayment(run);
  if (payment) {
    log('MCP retry safety: ten concurrent retries of one test payment');
    const wire = JSON.parse(atob(payment.value)) as unknown;
    const results = await Promise.all(Array.from({ length: 10 }, () => call('bundle', BUNDLE, 'bundle paid', { 'x402/payment': wire })));
    const same = results.every((r) => !r.isError && JSON.stringify(r.structuredContent) === JSON.stringify(results[0]!.structuredContent));
    run.check('retry', 'MCP: ten concurrent retries of one payment: one answer', 'tools/call bundle', same ? undefined : 'results differ');
  }
  await client.close();
}

const rateLimited = (result: Record<string, unknown>) =>
  result.isError === true && (result.structuredContent as { error?: unknown } | undefined)?.error === 'rate_limited';
const retryAfterOf = (result: Record<string, unknown>): number | undefined => {
  const limits = (result._meta as Record<string, unknown> | undefined)?.['svc/ratelimit'] as { retry_after_s?: unknown } | undefined;
  return typeof limits?.retry_after_s === 'number' ? limits.retry_after_s : undefined;
};

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
