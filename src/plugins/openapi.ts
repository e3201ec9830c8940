import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance, RouteOptions, onSendHookHandler } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from 'typebox';
import type { Config } from '../config.js';
import { CursorSchema, ReceiptSchema } from '../core/schemas.js';
import { loadFixtures } from '../upstream/fixtures.js';
import type { Registry } from '../sources/registry.js';
import { UNLIMITED } from '../core/unmetered.js';
import type { OpenApiDoc, Operation, MediaType, ResponseObject, SchemaNode } from '../core/openapi-doc.js';
import { rowComponents } from './openapi-rows.js';
import { CORROBORATION_SCHEMA } from './openapi-corroboration.js';
import { DESCRIPTION, SECURITY_SCHEMES, TAGS } from './openapi-info.js';
import { differencesOf } from './differences.js';
import { LOGO_SVG } from '../core/brand.js';
import { DOCS_CSS } from './docs-theme.js';
import { API_VERSION } from '../core/version.js';

/** Response examples by operationId and status, recorded from demo-mode answers by `npm run docs:examples`. */
export type Examples = Record<string, Record<string, unknown>>;
export const EXAMPLES_FILE = new URL('./openapi-examples.json', import.meta.url);
const loadExamples = (): Examples => (existsSync(EXAMPLES_FILE) ? (JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples) : {});

const header = (description: string, schema: SchemaNode = { type: 'string' }) => ({ description, schema });
const HEADERS = {
  'X-Request-Id': header('Id of this request; also `request_id` in error bodies.'),
  'RateLimit-Policy': header(
    'The caller’s quota policy (draft-ietf-httpapi-ratelimit-headers-12), named after its tier: `"anonymous";q=120;w=60` is 120 requests per 60 s.',
  ),
  RateLimit: header(
    'What is left of that quota: `"anonymous";r=119;t=1`, r requests left, t seconds until the quota is whole again (on a 429: until the next request is admitted, as Retry-After).',
  ),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer' }),
  'WWW-Authenticate': header(
    'On a 402, `x402`: the request needs an x402 payment. On a 401, `Bearer realm="svc"`: send the credential as a bearer token.',
  ),
  'X-Payment-Required': header("The 402 challenge as JSON: `{amount, asset, chain, recipient, memo, expires}` (the body's `invoice`)."),
  'X-Payment-Response': header(
    'x402 v1: base64 JSON settlement result `{success, transaction, network, payer}`; on a 402 after a failed settlement `{success: false, errorReason}`.',
  ),
  'PAYMENT-REQUIRED': header('x402 v2: base64 JSON PaymentRequired `{x402Version: 2, error, resource, accepts[], extensions: {bazaar}}`.'),
  'PAYMENT-RESPONSE': header('x402 v2: base64 JSON settlement result, as X-Payment-Response with the CAIP-2 network.'),
  'X-Payment-Status': header('`pending` (settled later) or `released` (nothing charged).'),
};
const headerRefs = (...names: (keyof typeof HEADERS)[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** TypeBox schemas are JSON Schema objects; their interfaces just lack the open index signature. */
const node = (schema: TSchema) => schema as unknown as SchemaNode;
const RECEIPT = node(ReceiptSchema);

/** `GET /api/v1/entity/:id` → `getEntityById`; stable as long as method and path are. Override with `schema.operationId`. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api(\/v\d+)?/, '')
    .split(/[/.\-_]+/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') || w.startsWith('{') ? `by-${w.replace(/[:{}]/g, '')}` : w))
    .flatMap((w) => w.split('-'));
  const camel = [method.toLowerCase(), ...(words.length ? words : ['root'])]
    .map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join('');
  return camel.replace(/[^A-Za-z0-9]/g, '');
}

/** A route's Fastify schema as the swagger transform sees it. */
interface RouteSchema {
  [field: string]: unknown;
  hide?: boolean;
  operationId?: string;
  security?: Record<string, string[]>[];
  body?: SchemaNode;
  querystring?: SchemaNode;
  response?: Record<string, SchemaNode>;
}

/**
 * Who may call a route that did not say: admin paths need the admin token, 402-answering routes are paid, the rest
 * take no credential (`[]`, so /docs shows no lock on them; the optional X-API-Key that raises the rate-limit tier
 * is described in the document's introduction, not listed on every free route). A paid route also lists `{}`: the
 * unpaid call is served (its free tier or the 402 challenge), and validating proxies such as Prism answer 401
 * themselves to a call that meets none of the listed requirements.
 */
function defaultSecurity(url: string, schema: RouteSchema): Record<string, string[]>[] {
  if (url.startsWith('/api/v1/admin/')) return [{ adminToken: [] }];
  if (!schema.response?.[402]) return [];
  const paid: Record<string, string[]>[] = [{ x402: [] }, { passToken: [] }];
  if (schema.body?.properties?.session_id) paid.push({ checkoutSession: [] });
  return [...paid, {}];
}

/** The 200 schema of a signed route, as clients see it: with `_receipt` appended by the signing hook. */
function withReceipt(ok: SchemaNode): SchemaNode {
  if (ok.type === 'object' && !ok.allOf)
    return { ...ok, properties: { ...ok.properties, _receipt: RECEIPT }, required: [...(ok.required ?? []), '_receipt'] };
  return { allOf: [ok, { type: 'object', properties: { _receipt: RECEIPT }, required: ['_receipt'] }] };
}

/** Per route, documentation only (the route's own schema keeps validating and serializing). */
function transformRoute({ schema = {}, url, route }: { schema?: RouteSchema; url: string; route: RouteOptions }) {
  if (schema.hide) return { schema, url };
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  const signed = Boolean(route.config && (route.config as { signed?: boolean }).signed);
  const differences = differencesOf(method, url);
  const description = [schema.description, ...differences].filter(Boolean).join(' ');
  const response =
    schema.response && signed && schema.response[200] ? { ...schema.response, 200: withReceipt(schema.response[200]) } : schema.response;
  return {
    url,
    schema: {
      ...schema,
      ...(description ? { description } : {}),
      ...(method === 'HEAD' && typeof schema.summary === 'string' ? { summary: `${schema.summary}: the headers only (HEAD)` } : {}),
      operationId: schema.operationId ?? operationIdFor(method, url),
      security: schema.security ?? defaultSecurity(url, schema),
      ...(response ? { response } : {}),
    },
  };
}

const SCHEMA_CHILDREN = ['properties', 'patternProperties'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * Rewrites one schema tree for OpenAPI 3.0: a titled schema moves to `components.schemas` and is
 * replaced by a `$ref` (one title, one shape: a second shape under the same title is an error);
 * `_cursor` refers to Cursor; TypeBox records (`patternProperties`) become `additionalProperties`.
 */
function normalizeSchema(schema: SchemaNode, components: Components, key?: string): SchemaNode {
  if (schema.$ref) return schema;
  if (key === '_cursor') return ref('Cursor');
  const out: SchemaNode = { ...schema };
  for (const field of SCHEMA_CHILDREN) {
    const children = out[field];
    if (children) out[field] = Object.fromEntries(Object.entries(children).map(([k, v]) => [k, normalizeSchema(v, components, k)]));
  }
  for (const field of SCHEMA_LISTS) out[field] &&= out[field].map((s) => normalizeSchema(s, components));
  if (out.items) out.items = normalizeSchema(out.items, components);
  if (out.not) out.not = normalizeSchema(out.not, components);
  if (out.additionalProperties && typeof out.additionalProperties === 'object')
    out.additionalProperties = normalizeSchema(out.additionalProperties, components);
  if (out.patternProperties) {
    const values = Object.values(out.patternProperties);
    delete out.patternProperties;
    out.additionalProperties = values.length === 1 ? values[0] : true;
  }
  if (typeof out.title !== 'string') return out;
  const name = out.title;
  const { title: _title, ...body } = out;
  const known = components[name];
  if (known && JSON.stringify(known) !== JSON.stringify(body)) throw new Error(`OpenAPI: two different schemas are titled ${name}`);
  components[name] = body;
  return ref(name);
}

type Components = Record<string, SchemaNode>;

function normalizeContent(content: Record<string, MediaType> | undefined, components: Components) {
  if (!content) return content;
  return Object.fromEntries(
    Object.entries(content).map(([type, media]) => [
      type,
      media.schema ? { ...media, schema: normalizeSchema(media.schema, components) } : media,
    ]),
  );
}

/**
 * An event-stream response (core/schemas EventStream) → `text/event-stream` whose schema is the
 * message schema, the convention OpenAI's and others' documents use for SSE.
 */
function eventStreamContent(response: ResponseObject, components: Components) {
  const schema = response.content?.['application/json']?.schema;
  if (schema?.contentMediaType !== 'text/event-stream') return;
  response.description = `${schema.description}. Each message is \`data: <JSON>\` and a blank line; the schema below describes that JSON.`;
  response.content = { 'text/event-stream': { schema: normalizeSchema(schema['x-svc-message'] as SchemaNode, components) } };
}

function finishOperation(path: string, op: Operation, components: Components, examples: Examples) {
  op.parameters = op.parameters?.map((p) => (p.schema ? { ...p, schema: normalizeSchema(p.schema, components) } : p));
  if (!op.parameters) delete op.parameters;
  if (op.requestBody) op.requestBody = { ...op.requestBody, content: normalizeContent(op.requestBody.content, components)! };
  const metered = !UNLIMITED.has(path);
  if (metered && !op.responses['429'])
    op.responses['429'] = { description: 'Rate limit reached', content: { 'application/json': { schema: ref('ErrorBody') } } };
  for (const [status, response] of Object.entries(op.responses)) {
    eventStreamContent(response, components);
    response.content = normalizeContent(response.content, components);
    if (!response.content) delete response.content;
    const example = examples[op.operationId]?.[status];
    if (example !== undefined && response.content?.['application/json']) response.content['application/json'].example = example;
    if (/^[45]/.test(status)) response.description = errorDescription(status);
    else if (response.description === 'Default Response') response.description = 'OK';
    // A stream writes its own head (the reply is hijacked), so none of the common headers apply.
    if (response.content?.['text/event-stream']) continue;
    const names: (keyof typeof HEADERS)[] = ['X-Request-Id'];
    if (metered) names.push('RateLimit-Policy', 'RateLimit');
    if (status === '429' || status === '503') names.push('Retry-After');
    if (status === '401') names.push('WWW-Authenticate');
    if (status === '402')
      names.push('WWW-Authenticate', 'X-Payment-Required', 'PAYMENT-REQUIRED', 'X-Payment-Response', 'PAYMENT-RESPONSE');
    if (status === '200' && op.responses['402']) names.push('X-Payment-Response', 'PAYMENT-RESPONSE', 'X-Payment-Status');
    response.headers = { ...headerRefs(...names), ...response.headers };
  }
}

const errorDescription = (status: string) =>
  ({
    '400': 'Invalid request (the body names the field)',
    '401': 'Credential missing',
    '402': 'Payment required (x402 challenge)',
    '403': 'Credential wrong or address blocked',
    '404': 'Not found',
    '409': 'Conflict',
    '413': 'Payload too large',
    '422': 'Unprocessable',
    '429': 'Rate limit reached',
    '503': 'Upstream or dependency unavailable',
  })[status] ?? 'Error';

/** Whole-document pass: components, headers, security schemes, row schemas. */
export function finishDocument(doc: OpenApiDoc, rows: Components, examples: Examples = {}): OpenApiDoc {
  const components: Components = {};
  normalizeSchema(node(CursorSchema), components);
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const op of Object.values(ops)) finishOperation(path, op, components, examples);
  }
  const rowRefs = Object.keys(rows).map(ref);
  components.Row = {
    description: 'A normalized row (snake_case, units in names, always `source` and `as_of`): one of the per-type rows',
    anyOf: rowRefs,
  };
  return {
    ...doc,
    components: {
      ...doc.components,
      schemas: { ...doc.components?.schemas, ...components, ...rows, Corroboration: CORROBORATION_SCHEMA },
      headers: HEADERS,
    },
  };
}

/**
 * The document is built on its first request (`/openapi.json`, `/docs`, discovery files, MCP tools), not at start-up:
 * its row schemas come from every upstream fixture (0.7 MB of JSON), which a server never asked for it would hold for
 * nothing. @fastify/swagger keeps what `transformObject` returns, so the fixtures are read once.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config, registry: Registry): Promise<void> {
  const finish = (openapiObject: OpenApiDoc) => {
    const started = performance.now();
    const doc = finishDocument(openapiObject, rowComponents(loadFixtures(), registry.types()), loadExamples());
    // Said once, so an operator knows why the first /openapi.json (or /docs, or MCP tools/list) took longer.
    app.log.info({ ms: Math.round(performance.now() - started) }, 'OpenAPI document built on its first request');
    return doc;
  };
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'svc',
        version: API_VERSION,
        description: DESCRIPTION,
        license: { name: 'CC-BY-4.0 (data and metadata)', url: 'https://creativecommons.org/licenses/by/4.0/' },
      },
      servers: [{ url: config.publicUrl }],
      tags: TAGS,
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    transform: transformRoute as never,
    transformObject: ({ openapiObject }: { openapiObject: OpenApiDoc }) => finish(openapiObject),
  } as never);
  // Swagger UI's page has no viewport meta: without one a phone renders it 980 px wide and shrinks it.
  // Added to the page's own routes, so no other answer runs the hook.
  app.addHook('onRoute', (route) => {
    if (/^\/docs\/?$/.test(route.url)) route.onSend = [...[route.onSend ?? []].flat(), withViewport];
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/', target: '_self' },
    theme: {
      title: 'svc API reference',
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(LOGO_SVG) }],
      css: [{ filename: 'svc.css', content: DOCS_CSS }],
    },
    staticCSP: true,
    // Try-it-out calls this origin, whatever name the operator serves the page under; CSP allows only 'self'.
    transformSpecification: (spec: Record<string, unknown>) => ({
      ...spec,
      servers: [{ url: '/', description: 'this server' }, ...(spec.servers as object[])],
    }),
    // `upgrade-insecure-requests` would send Try-it-out calls from an http origin to https.
    transformStaticCSP: (csp: string) => csp.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

const withViewport: onSendHookHandler = (_request, reply, payload, done) => {
  const html = typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html');
  done(null, html ? payload.replace('<head>', '<head>\n<meta name="viewport" content="width=device-width, initial-scale=1">') : payload);
};
