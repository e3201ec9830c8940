import type { OpenApiDoc, Operation, Parameter, SchemaNode } from '../core/openapi-doc.js';

/**
 * x402 discovery ("Bazaar") of a paid operation, derived from its OpenAPI operation: how to call it
 * (method, an example query or body, their schemas) and what comes back (an example and a schema).
 * A facilitator that sees it in a payment catalogs the resource. It travels in the 402 and is echoed
 * in every v2 payment, so it is kept small: schemas stop at a fixed depth, wide unions and
 * annotations are left out, example arrays keep their first items.
 */
export interface Discovery {
  /** x402 v2 `extensions.bazaar`: `info` and the JSON Schema (2020-12) that `info` satisfies. */
  bazaar: { info: DiscoveryInfo; schema: Json };
  /** x402 v1 `accepts[].outputSchema`: `{input: {type: "http", method, discoverable, …}, output: <response schema>}`. */
  outputSchema: { input: Json; output: Json };
}

type Json = Record<string, unknown>;

interface DiscoveryInfo {
  input: Json;
  output: { type: 'json'; example: unknown };
}

const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';
/** Nesting (properties, items, references) below which a schema accepts any value. */
const MAX_DEPTH = 5;
/** Unions wider than this (the 43 row shapes) accept any value. */
const MAX_UNION = 6;
/** Items an example array keeps. */
const EXAMPLE_ITEMS = 1;
const CONSTRAINTS = [
  'type',
  'enum',
  'const',
  'required',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
] as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Each route's discovery, derived once from the app's OpenAPI document (read lazily: it is complete once the app is ready). */
export class Discoveries {
  private readonly byRoute = new Map<string, Discovery | undefined>();

  constructor(private readonly openapi: () => OpenApiDoc) {}

  /** `route` in Fastify syntax (`/api/v1/entity/:id`); OpenAPI writes `{id}`. */
  of(method: string, route: string | undefined): Discovery | undefined {
    if (!route) return undefined;
    const key = `${method} ${route}`;
    if (!this.byRoute.has(key)) this.byRoute.set(key, discoveryOf(this.openapi(), method, route.replace(/:(\w+)/g, '{$1}')));
    return this.byRoute.get(key);
  }
}

/** The discovery of `method path` (OpenAPI path syntax), or undefined for an operation that is not paid. */
export function discoveryOf(doc: OpenApiDoc, method: string, path: string): Discovery | undefined {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op?.responses['402']) return undefined;
  const upper = method.toUpperCase();
  const query = queryOf(doc, op);
  const input: Json = { type: 'http', method: upper };
  const inputSchema: Json = { type: { type: 'string', const: 'http' }, method: { type: 'string', enum: [upper] } };
  const required = ['type', 'method'];
  if (query.example) {
    input.queryParams = query.example;
    inputSchema.queryParams = query.schema;
  }
  const body = op.requestBody?.content['application/json'];
  if (BODY_METHODS.has(upper)) {
    input.bodyType = 'json';
    input.body = body?.example ?? (body?.schema ? exampleOf(doc, body.schema) : {});
    inputSchema.bodyType = { type: 'string', enum: ['json'] };
    inputSchema.body = body?.schema ? jsonSchemaOf(doc, body.schema) : { type: 'object' };
    required.push('bodyType', 'body');
  }
  const ok = op.responses['200']?.content?.['application/json'];
  const outputSchema = ok?.schema ? jsonSchemaOf(doc, ok.schema) : {};
  const outputExample = trimmed(ok?.example ?? (ok?.schema ? exampleOf(doc, ok.schema) : {}));
  return {
    bazaar: {
      info: { input, output: { type: 'json', example: outputExample } },
      schema: {
        $schema: JSON_SCHEMA_2020,
        type: 'object',
        properties: {
          input: { type: 'object', properties: inputSchema, required, additionalProperties: false },
          output: { type: 'object', properties: { type: { type: 'string' }, example: outputSchema }, required: ['type'] },
        },
        required: ['input'],
      },
    },
    outputSchema: {
      input: {
        type: 'http',
        method: upper,
        discoverable: true,
        ...(query.example ? { queryParams: Object.fromEntries(Object.entries(query.example).map(([k, v]) => [k, String(v)])) } : {}),
        ...(input.body ? { bodyType: 'json', bodyFields: input.body } : {}),
      },
      output: outputSchema,
    },
  };
}

/**
 * The query of an example call: every required parameter and every one the OpenAPI gives an
 * example for (`tier=paid`, which makes the call answer 402 until paid); never `free`.
 */
function queryOf(doc: OpenApiDoc, op: Operation): { example?: Json; schema?: Json } {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const example: Json = {};
  for (const p of params) {
    const given = explicitExample(p);
    if (given !== undefined) example[p.name] = given;
    else if (p.required && p.schema) example[p.name] = exampleOf(doc, p.schema);
  }
  if (!Object.keys(example).length) return {};
  const properties = Object.fromEntries(params.map((p) => [p.name, p.schema ? jsonSchemaOf(doc, p.schema) : {}]));
  return { example, schema: { type: 'object', properties, required: params.filter((p) => p.required).map((p) => p.name) } };
}

const explicitExample = (p: Parameter & { example?: unknown }) => p.example ?? p.schema?.example;

const resolve = (doc: OpenApiDoc, ref: string): SchemaNode => doc.components.schemas[ref.replace('#/components/schemas/', '')] ?? {};

/** An OpenAPI 3.0 schema as JSON Schema 2020-12: references inlined, `nullable` as a `null` type, annotations dropped. */
export function jsonSchemaOf(doc: OpenApiDoc, node: SchemaNode, depth = 0): Json {
  if (depth > MAX_DEPTH) return {};
  if (node.$ref) return jsonSchemaOf(doc, resolve(doc, node.$ref), depth + 1);
  const out: Json = {};
  for (const keyword of CONSTRAINTS) if (node[keyword] !== undefined) out[keyword] = node[keyword];
  if (node.nullable && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (node.nullable && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  const next = (child: SchemaNode) => jsonSchemaOf(doc, child, depth + 1);
  if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, next(v)]));
  if (node.items) out.items = next(node.items);
  if (typeof node.additionalProperties === 'object') out.additionalProperties = next(node.additionalProperties);
  else if (node.additionalProperties === false) out.additionalProperties = false;
  for (const union of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = node[union];
    if (members && members.length <= MAX_UNION) out[union] = members.map(next);
  }
  return out;
}

/** A value the schema accepts, for operations whose OpenAPI has no example. */
export function exampleOf(doc: OpenApiDoc, node: SchemaNode, depth = 0): unknown {
  if (node.$ref) return depth > MAX_DEPTH ? {} : exampleOf(doc, resolve(doc, node.$ref), depth + 1);
  for (const known of [node.example, node.default, node.const, (node.enum as unknown[] | undefined)?.[0]])
    if (known !== undefined) return known;
  const first = node.allOf?.[0] ?? node.anyOf?.[0] ?? node.oneOf?.[0];
  if (first) return exampleOf(doc, first, depth + 1);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'object': {
      const required = new Set(node.required ?? []);
      const props = Object.entries(node.properties ?? {}).filter(([k]) => required.has(k));
      return Object.fromEntries(props.map(([k, v]) => [k, exampleOf(doc, v, depth + 1)]));
    }
    case 'array':
      return node.items && Number(node.minItems ?? 0) > 0 ? [exampleOf(doc, node.items, depth + 1)] : [];
    case 'string':
      return 'x'.repeat(Math.max(1, Number(node.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(node.minimum ?? 0);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** An example with each array cut to its first items. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ITEMS).map(trimmed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}
