import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ROLES, type ModelSpec, type Wire } from '../config-models.js';
import { demoResponder } from './model-answers.js';

export { demoResponder, minimalInstance } from './model-answers.js';

/**
 * Loopback fakes of three model vendors, each speaking its documented wire format:
 * - OpenAI chat completions `POST /v1/chat/completions` (response_format json_schema → JSON text in
 *   `choices[0].message.content`), https://platform.openai.com/docs/api-reference/chat/create;
 * - Anthropic Messages `POST /v1/messages` (a forced `tool_use` of the schema tool, or
 *   `output_config.format` → JSON text), https://docs.anthropic.com/en/api/messages;
 * - Gemini `POST /v1beta/models/{model}:generateContent` (generationConfig.responseSchema → JSON text
 *   in `candidates[0].content.parts[0].text`), https://ai.google.dev/api/generate-content.
 * Tests program the answers (`queue`, `respondWith`) and read what each vendor received (`calls`);
 * the demo (SVC_DEMO=1) runs the same server with `demoResponder`, labelled model "demo".
 */
export interface FakeCall {
  wire: Wire;
  model: string;
  system: string;
  messages: { role: string; text: string; images: number }[];
  /** The JSON Schema the request asked the answer to satisfy, if any, and how the wire carried it. */
  schema?: Record<string, unknown>;
  schemaName?: string;
  structuredVia?: 'response_format' | 'tool_use' | 'output_config' | 'responseSchema';
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeReply {
  /** A structured answer (sent as the wire's structured form). */
  json?: unknown;
  text?: string;
  /** An HTTP error in the vendor's error shape. */
  status?: number;
  delayMs?: number;
}

export type Responder = (call: FakeCall) => FakeReply;

type Json = Record<string, unknown>;
const asArray = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));
const id = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

function textOf(content: unknown): { text: string; images: number } {
  if (typeof content === 'string') return { text: content, images: 0 };
  const parts = asArray(content);
  const text = parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
  const images = parts.filter((p) => p.type === 'image_url' || p.type === 'image' || p.inlineData || p.inline_data).length;
  return { text, images };
}

/** Each wire's request → one normalized call. */
function readCall(wire: Wire, path: string, body: Json, headers: IncomingMessage['headers']): FakeCall {
  if (wire === 'openai-chat') {
    const messages = asArray(body.messages).map((m) => ({ role: String(m.role), ...textOf(m.content) }));
    const format = body.response_format as Json | undefined;
    const schema = format?.type === 'json_schema' ? (format.json_schema as Json) : undefined;
    return {
      wire,
      model: String(body.model),
      system: messages
        .filter((m) => m.role === 'system' || m.role === 'developer')
        .map((m) => m.text)
        .join('\n'),
      messages: messages.filter((m) => m.role !== 'system' && m.role !== 'developer'),
      ...(schema ? { schema: schema.schema as Json, schemaName: String(schema.name), structuredVia: 'response_format' as const } : {}),
      headers,
      body,
    };
  }
  if (wire === 'anthropic-messages') {
    const tool = asArray(body.tools)[0];
    const choice = (body.tool_choice as Json | undefined)?.type;
    const forced = (choice === 'tool' || choice === 'any') && tool;
    const format = ((body.output_config as Json | undefined)?.format as Json | undefined) ?? undefined;
    return {
      wire,
      model: String(body.model),
      system: typeof body.system === 'string' ? body.system : textOf(body.system).text,
      messages: asArray(body.messages).map((m) => ({ role: String(m.role), ...textOf(m.content) })),
      ...(forced ? { schema: tool.input_schema as Json, schemaName: String(tool.name), structuredVia: 'tool_use' as const } : {}),
      ...(format ? { schema: format.schema as Json, structuredVia: 'output_config' as const } : {}),
      headers,
      body,
    };
  }
  const config = (body.generationConfig as Json | undefined) ?? {};
  const schema = (config.responseSchema ?? config.responseJsonSchema) as Json | undefined;
  return {
    wire,
    model: decodeURIComponent(path.replace(/^\/v1beta\/models\//, '').replace(/:generateContent$/, '')),
    system: textOf((body.systemInstruction as Json | undefined)?.parts).text,
    messages: asArray(body.contents).map((c) => ({ role: String(c.role), ...textOf(c.parts) })),
    ...(schema ? { schema, structuredVia: 'responseSchema' as const } : {}),
    headers,
    body,
  };
}

function promptTokens(call: FakeCall): number {
  return tokens(call.system + call.messages.map((m) => m.text).join(''));
}

/** A reply in the wire's own response shape. */
function encode(call: FakeCall, reply: FakeReply): Json {
  const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
  const input = promptTokens(call);
  const output = tokens(text);
  if (call.wire === 'openai-chat') {
    return {
      id: id('chatcmpl-'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: call.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
      system_fingerprint: 'fp_fake',
    };
  }
  if (call.wire === 'anthropic-messages') {
    const asTool = call.structuredVia === 'tool_use' && reply.json !== undefined;
    return {
      id: id('msg_'),
      type: 'message',
      role: 'assistant',
      model: call.model,
      content: asTool ? [{ type: 'tool_use', id: id('toolu_'), name: call.schemaName, input: reply.json }] : [{ type: 'text', text }],
      stop_reason: asTool ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output },
    };
  }
  return {
    candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
    modelVersion: call.model,
    responseId: id(''),
  };
}

function errorBody(wire: Wire, status: number): Json {
  const message = `simulated error ${status}`;
  if (wire === 'openai-chat')
    return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', param: null, code: null } };
  if (wire === 'anthropic-messages') return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } };
  return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
}

function wireOfPath(method: string, path: string): Wire | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/chat/completions') return 'openai-chat';
  if (path === '/v1/messages') return 'anthropic-messages';
  if (/^\/v1beta\/models\/[^/]+:generateContent$/.test(path)) return 'gemini';
  return undefined;
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json;
}

export class ModelFakes {
  private server?: Server;
  private readonly queued: FakeReply[] = [];
  private responder: Responder;
  readonly calls: FakeCall[] = [];
  url = '';

  constructor(responder: Responder = demoResponder) {
    this.responder = responder;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Replies served in order before the responder answers again. */
  queue(...replies: FakeReply[]): void {
    this.queued.push(...replies);
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  reset(): void {
    this.queued.length = 0;
    this.calls.length = 0;
    this.responder = demoResponder;
  }

  /** One spec per vendor family, all served here; the demo's panel of four distinct vendors. */
  specs(model = 'demo'): ModelSpec[] {
    const at = (path: string) => `${this.url}${path}`;
    const spec = (id: string, vendor: ModelSpec['vendor'], baseUrl: string): ModelSpec => ({
      id,
      vendor,
      model,
      baseUrl,
      apiKey: 'fake-key',
      priceIn: 0,
      priceOut: 0,
      roles: [...ROLES],
    });
    return [
      spec('demo-openai', 'openai', at('/v1')),
      spec('demo-anthropic', 'anthropic', at('/v1')),
      spec('demo-google', 'google', at('/v1beta')),
      spec('demo-mistral', 'mistral', at('/v1')),
    ];
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const wire = wireOfPath(req.method ?? 'GET', path);
    if (!wire) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no such endpoint: ${req.method} ${path}` } }));
      return;
    }
    const call = readCall(wire, path, await readJson(req), req.headers);
    this.calls.push(call);
    const reply = this.queued.shift() ?? this.responder(call);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    const status = reply.status ?? 200;
    res
      .writeHead(status, { 'content-type': 'application/json', 'request-id': id('req_') })
      .end(JSON.stringify(status === 200 ? encode(call, reply) : errorBody(wire, status)));
  }
}
