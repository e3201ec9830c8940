import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from './caller.js';
import type { Operation } from '../core/openapi-doc.js';
import { findOperation, toJsonSchema, type JsonSchema, type OpenApiDoc } from './schema.js';

/**
 * The MCP tools. Each is one HTTP operation of the service, named by its OpenAPI operationId: the
 * input schema, output schema and description come from the OpenAPI document (so the `type` enum
 * is the registry's), and a call goes through the same route as any HTTP client.
 * Adding a tool = one line in TOOLS.
 */
interface ToolSpec {
  name: string;
  operationId: string;
  title: string;
  /** When to use it, in front of the operation's own summary and rules. */
  purpose: string;
  annotations: ToolAnnotations;
}

/** Reads our own state. */
const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Reads through to upstream APIs. */
const FETCH: ToolAnnotations = { ...READ, openWorldHint: true };
/** May spend money (x402 or a pass); a retry with the same payment returns the same answer. */
const PAID: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Records something new. */
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const tool = (name: string, operationId: string, title: string, annotations: ToolAnnotations, purpose: string): ToolSpec => ({
  name,
  operationId,
  title,
  annotations,
  purpose,
});

export const TOOLS: ToolSpec[] = [
  tool(
    'query',
    'getDataPreview',
    'Query one data type',
    FETCH,
    'Fetch live data of one type (see the resource svc://catalog for types and q shapes); free. Re-poll with since=<_cursor> to get only changes.',
  ),
  tool(
    'bundle',
    'postDataBundle',
    'Run several queries at once',
    PAID,
    'Run 1-20 queries in one call. free=true runs up to 5 at one row each at no cost; otherwise the call is paid.',
  ),
  tool(
    'resolve_entity',
    'getEntityResolve',
    'Resolve a name to an entity id',
    READ,
    'Turn a company, coin, ticker or identifier into a canonical entity id (svc-ent:…) to pass as `entity` to query.',
  ),
  tool(
    'backtest',
    'getBacktest',
    'Historical OHLCV candles',
    PAID,
    'Historical candles for crypto, stocks and forex. Unpaid calls get the last 100 candles of the range.',
  ),
  tool(
    'agent_context',
    'getAgentContext',
    'Data and a decision recipe for a goal',
    PAID,
    'Map a free-text goal (e.g. "should I buy ETH") to the data that matters plus a decision recipe.',
  ),
  tool(
    'verify_receipt',
    'postReceiptVerify',
    'Verify a signed receipt',
    READ,
    'Check that a `_receipt` was signed by this service and, given the response, that it covers exactly that response.',
  ),
  tool(
    'record_claim',
    'postCalibRecordClaim',
    'Record a calibration claim',
    WRITE,
    'Record a probabilistic claim (predicted_p) so its outcome later calibrates your confidence.',
  ),
  tool(
    'session_event',
    'postAgentSessionEvent',
    'Post to a live agent session',
    WRITE,
    'Post what you are doing (click, search, fetch, screenshot, thought, …) to a live session others watch; needs the session token from POST /api/agent-session/start as Authorization: Bearer on the MCP connection.',
  ),
  tool(
    'olympics_standings',
    'getOlympicsMedals',
    'Model olympics medal table and standings',
    READ,
    'See how well the panel models forecast the same live questions: medals, Brier, log loss, ECE and answered / failed / timed-out counts per model and discipline.',
  ),
  tool(
    'calibrate_p',
    'postCalibCalibrateP',
    'Calibrate a probability',
    READ,
    'Map a raw probability to the calibrated one, from the resolved claims of this agent and kind.',
  ),
  tool(
    'shield_verify',
    'postShieldVerify',
    'Is this safe? Verify before acting',
    FETCH,
    'Before approving, swapping, transferring, signing or visiting: get allow/warn/block with findings for a token, contract, address, URL or domain.',
  ),
  tool(
    'tool_audit',
    'postShieldToolAudit',
    'Audit a tool server for poisoned tools',
    { ...FETCH, readOnlyHint: false, idempotentHint: false },
    'Before trusting an MCP server or API: audit its tools/list or OpenAPI (or its URL) for hidden instructions, invisible Unicode, shadowed names, broad powers and secret fields; a URL audit reports what changed since the last one.',
  ),
  tool(
    'analyze_chart',
    'postChartAnalyze',
    'Four vision models read a chart',
    { ...WRITE, openWorldHint: true },
    "Send a chart image (image_b64: PNG, JPEG or WebP; over MCP under about 700 KB, as an MCP request is at most 1 MB) and get four models' verdicts side by side with a calibrated consensus; paper_trade=true with asset opens an arena paper trade.",
  ),
  tool(
    'arena_compare',
    'getArenaCompare',
    'Rank the arena strategies',
    READ,
    'Rank the 15 arena strategy × asset combinations over 30d, 90d or all (live, backfill or all trades) as a signed comparative attestation you can cite later by id.',
  ),
  tool(
    'classify',
    'postConstitutionalClassify',
    'Screen a text for prompt injection and unsafe output',
    WRITE,
    'Check text before you act on it (direction input: fetched pages, tool results, user messages) or before you show it (direction output): allow, flag or block, with the matched patterns.',
  ),
];

/** Row and text bounds of one tool result. */
export const LIMITS = { items: 50, stringChars: 20_000, textChars: 2_000 };

export interface Credentials {
  /** Day/week pass, presented on paid operations. */
  pass?: string;
  /** Agent key, presented on agent-authenticated operations. */
  agentKey?: string;
  /** Session token of a live agent session, presented on session_event. */
  sessionToken?: string;
  apiKey?: string;
  /** The end client's address, so rate limits count the agent and not the MCP endpoint. */
  clientIp?: string;
}

export interface BuiltTool {
  spec: ToolSpec;
  definition: Tool;
  method: string;
  path: string;
  queryNames: Set<string>;
  bodyNames: Set<string>;
  security: Set<string>;
}

const PAYMENT_ARG = 'payment';

function inputSchema(
  op: Operation,
  doc: OpenApiDoc,
  paid: boolean,
): { schema: JsonSchema; queryNames: Set<string>; bodyNames: Set<string> } {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path');
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const body = bodySchema ? toJsonSchema(bodySchema, doc) : {};
  const properties: Record<string, JsonSchema> = Object.fromEntries(
    params.map((p) => [p.name, { ...toJsonSchema(p.schema ?? {}, doc), ...(p.description ? { description: p.description } : {}) }]),
  );
  Object.assign(properties, body.properties);
  if (paid)
    properties[PAYMENT_ARG] = {
      type: 'string',
      description: 'x402 payment (base64 JSON) answering the challenge a previous call returned; sent as X-Payment',
    };
  const required = [...new Set([...params.filter((p) => p.required).map((p) => p.name), ...(body.required ?? [])])];
  const bodyNames = new Set(Object.keys(body.properties ?? {}));
  return {
    schema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    queryNames: new Set(params.map((p) => p.name).filter((n) => !bodyNames.has(n))),
    bodyNames,
  };
}

const TRUNCATED: JsonSchema = {
  type: 'object',
  description:
    'Present when arrays or strings were cut to keep the result small; the receipt then covers the full answer (fetch it over HTTP to verify)',
  properties: {
    paths: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, total: { type: 'integer' }, kept: { type: 'integer' } } },
    },
    hint: { type: 'string' },
  },
};

/** The answer, or the error body, or (paid tools) the x402 challenge: structuredContent is always one of them. */
function outputSchema(op: Operation, doc: OpenApiDoc, paid: boolean): JsonSchema {
  const ok = toJsonSchema(op.responses['200']?.content?.['application/json']?.schema ?? {}, doc);
  const alternatives = [
    ok,
    toJsonSchema({ $ref: '#/components/schemas/ErrorBody' }, doc),
    ...(paid ? [toJsonSchema({ $ref: '#/components/schemas/PaymentChallenge' }, doc)] : []),
  ];
  return { type: 'object', properties: { _truncated: TRUNCATED }, anyOf: alternatives };
}

export function buildTools(doc: OpenApiDoc, specs: ToolSpec[] = TOOLS): BuiltTool[] {
  return specs.map((spec) => {
    const { method, path, op } = findOperation(doc, spec.operationId);
    const security = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
    const paid = security.has('x402');
    const input = inputSchema(op, doc, paid);
    const payNote = paid
      ? '\n\nWithout payment the result is the x402 challenge (isError, structured): pay it and call again with `payment`, or configure a pass.'
      : '';
    return {
      spec,
      method,
      path,
      security,
      queryNames: input.queryNames,
      bodyNames: input.bodyNames,
      definition: {
        name: spec.name,
        title: spec.title,
        description: `${spec.purpose}\n\n${op.summary ?? spec.title}.${op.description ? ` ${op.description}` : ''}${payNote}`,
        inputSchema: input.schema as Tool['inputSchema'],
        outputSchema: outputSchema(op, doc, paid) as Tool['outputSchema'],
        annotations: { title: spec.title, ...spec.annotations },
      },
    };
  });
}

function headersFor(tool: BuiltTool, args: Record<string, unknown>, credentials: Credentials): Record<string, string> {
  const headers: Record<string, string> = {};
  const bearer =
    (tool.security.has('agentKey') && credentials.agentKey) ||
    (tool.security.has('sessionToken') && credentials.sessionToken) ||
    (tool.security.has('passToken') && credentials.pass) ||
    undefined;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (credentials.apiKey) headers['x-api-key'] = credentials.apiKey;
  if (credentials.clientIp) headers['x-forwarded-for'] = credentials.clientIp;
  if (typeof args[PAYMENT_ARG] === 'string') headers['x-payment'] = args[PAYMENT_ARG];
  return headers;
}

const pathValue = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

export async function callTool(
  tool: BuiltTool,
  args: Record<string, unknown>,
  caller: Caller,
  credentials: Credentials,
): Promise<CallToolResult> {
  const present = Object.entries(args).filter(([, v]) => v !== undefined && v !== null);
  const path = tool.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValue(args[name])));
  const query = Object.fromEntries(
    present.filter(([k]) => tool.queryNames.has(k) && !tool.path.includes(`{${k}}`)).map(([k, v]) => [k, String(v)]),
  );
  const body = tool.bodyNames.size ? Object.fromEntries(present.filter(([k]) => tool.bodyNames.has(k))) : undefined;
  const answer = await caller({ method: tool.method, path, query, body, headers: headersFor(tool, args, credentials) });
  return render(tool, answer.status, answer.body);
}

function render(tool: BuiltTool, status: number, body: unknown): CallToolResult {
  const object =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { error: 'unexpected_answer', message: `HTTP ${status}: ${JSON.stringify(body ?? null).slice(0, 200)}` };
  const { value, truncated } = bound(object);
  const structured = truncated.length
    ? {
        ...value,
        _truncated: { paths: truncated, hint: 'narrow the query or page with _cursor; the receipt covers the untruncated answer' },
      }
    : value;
  const ok = status >= 200 && status < 300;
  return {
    content: [{ type: 'text', text: summary(tool, status, structured) }],
    structuredContent: structured,
    ...(ok ? {} : { isError: true }),
  };
}

/** One line for the model to read: what happened, then the JSON cut to a few thousand characters. */
function summary(tool: BuiltTool, status: number, structured: Record<string, unknown>): string {
  const { _receipt: receipt, ...rest } = structured;
  const head =
    status === 402
      ? `Payment required for ${tool.spec.name}: ${JSON.stringify((structured as { invoice?: unknown }).invoice)}. Pay with x402 and call again with \`payment\`, or configure a pass.`
      : status >= 400
        ? `${tool.spec.name} failed (HTTP ${status}): ${String(structured.error)}: ${String(structured.message)}`
        : `${tool.spec.name} OK${receipt ? ` (signed receipt, kid ${(receipt as { kid?: string }).kid})` : ''}`;
  const json = JSON.stringify(rest);
  return `${head}\n${json.length > LIMITS.textChars ? `${json.slice(0, LIMITS.textChars)}… (full answer in structuredContent)` : json}`;
}

type Cut = { path: string; total: number; kept: number };

/** Caps arrays and long strings everywhere in the answer, reporting each cut. */
export function bound(value: Record<string, unknown>): { value: Record<string, unknown>; truncated: Cut[] } {
  const truncated: Cut[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'string' && v.length > LIMITS.stringChars) {
      truncated.push({ path, total: v.length, kept: LIMITS.stringChars });
      return v.slice(0, LIMITS.stringChars);
    }
    if (Array.isArray(v)) {
      if (v.length > LIMITS.items) truncated.push({ path, total: v.length, kept: LIMITS.items });
      return v.slice(0, LIMITS.items).map((item, i) => walk(item, `${path}[${i}]`));
    }
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, path ? `${path}.${k}` : k)]));
    return v;
  };
  return { value: walk(value, '') as Record<string, unknown>, truncated };
}
