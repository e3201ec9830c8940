import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Caller, ServiceAnswer } from './caller.js';
import type { Operation } from '../core/openapi-doc.js';
import { withProgress, type Progress } from './progress.js';
import { compact, findOperation, toJsonSchema, type JsonSchema, type OpenApiDoc } from './schema.js';
import { outputOutline, outputSchema } from './tool-output.js';
import { decodeJsonText, portableInput, type ArgumentPath } from './portable-input.js';
import { recordsSomething, TOOLS, type ToolSpec } from './tool-specs.js';
import { paymentHeaderOf, paymentMeta, type McpPayment } from './x402.js';
import { toolPaymentRequired } from './tool-402.js';
import { limitsMeta } from './limits-meta.js';
import { pagedResult, processPages, type PageStore } from './result-pages.js';

export { recordsSomething, TOOLS, type ToolSpec };

/** Strings longer than this are cut in tool results (about 2,000 tokens, shown twice: as JSON and as text). */
export const LIMITS = { stringChars: 8_000 };

export interface Credentials {
  /** Day/week pass, presented on paid operations. */
  pass?: string;
  /** Agent key, presented on agent-authenticated operations. */
  agentKey?: string;
  /** Session token of a live agent session, presented on session_event. */
  sessionToken?: string;
  /** Portfolio token of a linked portfolio, presented on the portfolio tools. */
  portfolioToken?: string;
  apiKey?: string;
  /** The end client's address, so rate limits count the agent and not the MCP endpoint. */
  clientIp?: string;
}

export interface BuiltTool {
  spec: ToolSpec;
  /** What tools/list shows: short description, compact schemas. */
  definition: Tool;
  /** The whole definition (the operation's own description, schemas in full): svc://tools/{name}. */
  full: Tool;
  paid: boolean;
  method: string;
  path: string;
  queryNames: Set<string>;
  bodyNames: Set<string>;
  security: Set<string>;
  /** Free-form arguments the schema offers as JSON text (portable-input.ts). */
  jsonText: ArgumentPath[];
}

/** Deprecated: the payment as a tool argument. Kept for clients that follow the earlier docs; `_meta["x402/payment"]` replaces it. */
const PAYMENT_ARG = 'payment';
/** REST answers in pages on request; MCP pages every result itself (result-pages.ts), so its tools do not take it. */
const REST_ONLY_PARAMS = new Set(['max_tokens']);

function inputSchema(
  op: Operation,
  doc: OpenApiDoc,
  paid: boolean,
): { schema: JsonSchema; queryNames: Set<string>; bodyNames: Set<string> } {
  const params = (op.parameters ?? []).filter((p) => (p.in === 'query' || p.in === 'path') && !REST_ONLY_PARAMS.has(p.name));
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const body = bodySchema ? toJsonSchema(bodySchema, doc) : {};
  const properties: Record<string, JsonSchema> = Object.fromEntries(
    params.map((p) => [p.name, { ...toJsonSchema(p.schema ?? {}, doc), ...(p.description ? { description: p.description } : {}) }]),
  );
  Object.assign(properties, body.properties);
  if (paid)
    properties[PAYMENT_ARG] = {
      type: 'string',
      deprecated: true,
      description: 'Deprecated: send the x402 payment in _meta["x402/payment"] instead. An X-Payment value (base64 JSON).',
    };
  const required = [...new Set([...params.filter((p) => p.required).map((p) => p.name), ...(body.required ?? [])])];
  const bodyNames = new Set(Object.keys(body.properties ?? {}));
  return {
    schema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    queryNames: new Set(params.map((p) => p.name).filter((n) => !bodyNames.has(n))),
    bodyNames,
  };
}

const LONG_ENUM = 12;

/** A long list of values (the data types) is spelled at the top level of a tool's arguments, not again inside items. */
function nestedEnumsNamed(schema: JsonSchema, nested: boolean): JsonSchema {
  if (nested && Array.isArray(schema.enum) && schema.enum.length > LONG_ENUM) {
    const { enum: values, ...rest } = schema;
    return { ...rest, description: `one of ${values.length} values, as in query's type (svc://catalog)` };
  }
  const walk = (s: JsonSchema) => nestedEnumsNamed(s, true);
  return {
    ...schema,
    ...(schema.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(schema.properties).map(([k, v]) => [k, nested ? walk(v) : nestedEnumsNamed(v, false)]),
          ),
        }
      : {}),
    ...(schema.items ? { items: walk(schema.items) } : {}),
  };
}

/** In tools/list the input keeps its rules with one-sentence descriptions; long lists of values only at the top level. */
const compactInput = (s: JsonSchema) => nestedEnumsNamed(compact(s, Infinity, true), false);
const PAY_NOTE = ' Paid (x402): unpaid, it returns the PaymentRequired; pay via _meta["x402/payment"] or a pass.';

export function buildTools(doc: OpenApiDoc, specs: ToolSpec[] = TOOLS): BuiltTool[] {
  return specs.map((spec) => {
    const { method, path, op } = findOperation(doc, spec.operationId);
    const security = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
    const paid = security.has('x402');
    const input = inputSchema(op, doc, paid);
    const portable = portableInput(input.schema);
    const payNote = paid ? PAY_NOTE : '';
    const output = outputSchema(op, doc, paid);
    const annotations = { title: spec.title, ...spec.annotations };
    const definition = (description: string, input: JsonSchema, output: JsonSchema): Tool => ({
      name: spec.name,
      title: spec.title,
      description,
      inputSchema: input as Tool['inputSchema'],
      outputSchema: output as Tool['outputSchema'],
      annotations,
    });
    return {
      spec,
      paid,
      method,
      path,
      security,
      queryNames: input.queryNames,
      bodyNames: input.bodyNames,
      jsonText: portable.jsonText,
      definition: definition(`${spec.purpose}${payNote}`, compactInput(portable.schema), outputOutline(output)),
      full: definition(
        `${spec.purpose}\n\n${op.summary ?? spec.title}.${op.description ? ` ${op.description}` : ''}${payNote}`,
        portable.schema,
        output,
      ),
    };
  });
}

function headersFor(tool: BuiltTool, args: Record<string, unknown>, credentials: Credentials, paid?: McpPayment): Record<string, string> {
  const headers: Record<string, string> = {};
  const bearer =
    (tool.security.has('agentKey') && credentials.agentKey) ||
    (tool.security.has('sessionToken') && credentials.sessionToken) ||
    (tool.security.has('portfolioToken') && credentials.portfolioToken) ||
    (tool.security.has('passToken') && credentials.pass) ||
    undefined;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (credentials.apiKey) headers['x-api-key'] = credentials.apiKey;
  if (credentials.clientIp) headers['x-forwarded-for'] = credentials.clientIp;
  if (paid) Object.assign(headers, paymentHeaderOf(paid.payment));
  else if (typeof args[PAYMENT_ARG] === 'string') headers['x-payment'] = args[PAYMENT_ARG];
  return headers;
}

const pathValue = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** What a call brings besides its arguments: the `_meta` payment and the client's progress token. */
export interface CallExtras {
  payment?: McpPayment;
  progress?: Progress;
  /** Where the pages of a long result wait for next_page (the service's cache; in-process by default). */
  pages?: PageStore;
}

export async function callTool(
  tool: BuiltTool,
  args: Record<string, unknown>,
  caller: Caller,
  credentials: Credentials,
  { payment, progress, pages = processPages }: CallExtras = {},
): Promise<CallToolResult> {
  const refusal = refuseUnknownArguments(tool.definition, args);
  if (refusal) return refusal;
  const decoded = decodeJsonText(args, tool.jsonText);
  if ('refusal' in decoded) return decoded.refusal;
  const present = Object.entries(decoded.args).filter(([, v]) => v !== undefined && v !== null);
  const path = tool.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValue(args[name])));
  const query = Object.fromEntries(
    present.filter(([k]) => tool.queryNames.has(k) && !tool.path.includes(`{${k}}`)).map(([k, v]) => [k, String(v)]),
  );
  const body = tool.bodyNames.size ? Object.fromEntries(present.filter(([k]) => tool.bodyNames.has(k))) : undefined;
  const request = { method: tool.method, path, query, body, headers: headersFor(tool, args, credentials, payment) };
  const answer = await withProgress(
    tool.spec.long ? progress : undefined,
    `${tool.method} ${tool.path}`,
    () => caller(request),
    (a) => `answered HTTP ${a.status}`,
  );
  return render(tool, answer, pages, payment);
}

/** Arguments the tool does not take are refused by name (a tool execution error, so the model can correct itself). */
export function refuseUnknownArguments(tool: Tool, args: Record<string, unknown>): CallToolResult | undefined {
  const allowed = Object.keys(tool.inputSchema.properties ?? {});
  const unknown = Object.keys(args).filter((name) => !allowed.includes(name));
  if (!unknown.length) return undefined;
  const body = {
    error: 'bad_request',
    message: `Input validation error: ${tool.name} has no argument ${unknown.map((n) => `"${n}"`).join(', ')}; it takes ${allowed.join(', ')}`,
    details: { field: unknown[0], rule: 'unknown_argument', unknown, allowed },
  };
  return { content: [{ type: 'text', text: body.message }], structuredContent: body, isError: true };
}

async function render(tool: BuiltTool, answer: ServiceAnswer, pages: PageStore, paid?: McpPayment): Promise<CallToolResult> {
  const { status, body } = answer;
  if (status === 402 && tool.paid) {
    const required = toolPaymentRequired(answer, tool.definition);
    return {
      content: [{ type: 'text', text: JSON.stringify(required) }],
      structuredContent: required,
      isError: true,
      _meta: limitsMeta(answer),
    };
  }
  const object =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { error: 'unexpected_answer', message: `HTTP ${status}: ${JSON.stringify(body ?? null).slice(0, 200)}` };
  const { value, truncated } = bound(object);
  const whole = truncated.length
    ? { ...value, _truncated: { paths: truncated, hint: 'fetch the answer over HTTP for the whole text; the receipt covers it' } }
    : value;
  const ok = status >= 200 && status < 300;
  const { text, structured } = await pagedResult(headOf(tool, status, whole), whole, pages);
  const meta = { ...limitsMeta(answer), ...paymentMeta(answer, paid?.responseKey) };
  return {
    content: [{ type: 'text', text }],
    structuredContent: structured,
    ...(ok ? {} : { isError: true }),
    ...(Object.keys(meta).length ? { _meta: meta } : {}),
  };
}

/** The first line a model reads: what happened. */
function headOf(tool: BuiltTool, status: number, structured: Record<string, unknown>): string {
  if (status >= 400) return `${tool.spec.name} failed (HTTP ${status}): ${String(structured.error)}: ${String(structured.message)}`;
  const receipt = structured._receipt as { kid?: string } | undefined;
  return `${tool.spec.name} OK${receipt ? ` (signed receipt, kid ${receipt.kid}; structuredContent has it in full)` : ''}`;
}

type Cut = { path: string; total: number; kept: number };

/** Caps long strings everywhere in the answer, reporting each cut (long lists are paged instead: result-pages.ts). */
export function bound(value: Record<string, unknown>): { value: Record<string, unknown>; truncated: Cut[] } {
  const truncated: Cut[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'string' && v.length > LIMITS.stringChars) {
      truncated.push({ path, total: v.length, kept: LIMITS.stringChars });
      return v.slice(0, LIMITS.stringChars);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${path}[${i}]`));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, path ? `${path}.${k}` : k)]));
    return v;
  };
  return { value: walk(value, '') as Record<string, unknown>, truncated };
}
