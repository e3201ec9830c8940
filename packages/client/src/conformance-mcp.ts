import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOKEN_BUDGET, TOOL_LIST_BUDGET_BYTES, resultBudget, resultLimitsMeta, rowFreshness, rowsOf } from './conformance-rules.js';
import { AUDIT_MANIFEST } from './conformance-pages.js';
import { FRESH, sleep, type CatalogEntry, type Run } from './conformance-run.js';

/**
 * The conformance check over MCP (Streamable HTTP, with the MCP SDK's client): the default tool list's size, every
 * catalog example and the worst-case inputs as tool calls, and the long answers read on through `next_page`. Every
 * tool result is held to the token budget, `_meta`'s rate-limit numbers and freshness per row.
 */

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
/** A checked tool call: `target` names it in the report; `meta` goes out as the request's `_meta`. */
export type ToolCall = (name: string, args: Record<string, unknown>, target: string, meta?: Record<string, unknown>) => Promise<ToolResult>;

export async function mcpClient(run: Run, query = ''): Promise<Client> {
  const client = new Client({ name: 'svc-conformance', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${run.base}/mcp${query}`), { fetch: run.mcpFetch }));
  return client;
}

/** Tool calls through `client`, each checked; a result refused by the route's rate limit is waited out by its `_meta`. */
export function toolCaller(run: Run, client: Client): ToolCall {
  return async (name, args, target, meta) => {
    const send = () => client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
    let result = await send();
    // Back off by the _meta numbers, as an agent framework would.
    for (let waited = 0; rateLimited(result) && waited < run.maxBackoffS;) {
      const wait = retryAfterOf(result);
      run.check(
        'mcp',
        'a rate-limited tool result names Retry-After in _meta',
        target,
        wait === undefined ? 'no retry_after_s' : undefined,
      );
      waited += wait ?? 1;
      await sleep((wait ?? 1) * 1000);
      result = await send();
    }
    run.measure(`tools/call ${target}`, result);
    run.check('mcp', `tool result ≤ ${MCP_TOKEN_BUDGET} o200k tokens`, target, resultBudget(result), FRESH);
    run.check('mcp', 'tool result _meta carries the rate-limit numbers', target, resultLimitsMeta(result));
    for (const row of rowsOf(result.structuredContent)) run.check('mcp', 'freshness fields on every row', target, rowFreshness(row), FRESH);
    return result;
  };
}

/** A tool whose answers can run long, with its largest input: every page, reached through next_page, is checked. */
export async function pagedTool(call: ToolCall, name: string, args: Record<string, unknown>): Promise<void> {
  for (let result = await call(name, args, name); ;) {
    const next = (result.structuredContent as { _page?: { next?: string } } | undefined)?._page?.next;
    if (!next) return;
    result = await call('next_page', { cursor: next }, `${name} (next_page)`);
  }
}

/** The `mcp` phase: the default tool list, then every catalog example, the worst cases and a tool audit in pages. */
export async function mcpChecks(run: Run, types: CatalogEntry[]): Promise<void> {
  run.log('MCP: the default tool list, every catalog example, worst cases');
  const listing = await mcpClient(run);
  const bytes = new TextEncoder().encode(JSON.stringify(await listing.listTools())).length;
  run.check(
    'mcp',
    `default tools/list ≤ ${TOOL_LIST_BUDGET_BYTES} bytes`,
    'tools/list',
    bytes <= TOOL_LIST_BUDGET_BYTES ? undefined : `${bytes} bytes`,
    FRESH,
  );
  await listing.close();

  const client = await mcpClient(run, '?toolsets=all');
  const call = toolCaller(run, client);
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
  await pagedTool(call, 'tool_audit', { manifest: AUDIT_MANIFEST });
  await client.close();
}

/** A session's history (sessionHistory wrote it) read through the session_history tool, page by page. */
export async function mcpSessionHistory(run: Run, sessionId: string): Promise<void> {
  const client = await mcpClient(run, '?toolsets=all');
  await pagedTool(toolCaller(run, client), 'session_history', { session_id: sessionId });
  await client.close();
}

const rateLimited = (result: Record<string, unknown>) =>
  result.isError === true && (result.structuredContent as { error?: unknown } | undefined)?.error === 'rate_limited';
const retryAfterOf = (result: Record<string, unknown>): number | undefined => {
  const limits = (result._meta as Record<string, unknown> | undefined)?.['svc/ratelimit'] as { retry_after_s?: unknown } | undefined;
  return typeof limits?.retry_after_s === 'number' ? limits.retry_after_s : undefined;
};
