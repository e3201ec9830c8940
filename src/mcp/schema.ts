/**
 * OpenAPI 3.0 schemas → self-contained JSON Schema for MCP `inputSchema` / `outputSchema`:
 * `$ref`s inlined, `nullable` spelled as `anyOf` with `{type: "null"}` (a `type` array is not portable:
 * the MCP Inspector warns about it and Gemini refuses it), documentation-only keywords dropped.
 * Per-type rows stay generic here (they are resources at `svc://types/{type}`) so tool lists stay small.
 */
import type { OpenApiDoc, Operation, SchemaNode } from '../core/openapi-doc.js';

export type { OpenApiDoc, SchemaNode as JsonSchema };

const GENERIC_ROW: SchemaNode = {
  type: 'object',
  additionalProperties: true,
  description:
    'A normalized row (snake_case, units in names, with source and as_of); its per-type schema is the resource svc://types/{type}',
};
/** Keywords whose object or array value is data, not a schema. */
const VALUES = new Set(['enum', 'required', 'default']);
const DROPPED = new Set(['example', 'examples', 'nullable', 'xml', 'externalDocs', 'discriminator', 'readOnly', 'writeOnly', 'deprecated']);

export function toJsonSchema(schema: SchemaNode, doc: OpenApiDoc, seen: string[] = []): SchemaNode {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (name === 'Row' || /Row$/.test(name)) return GENERIC_ROW;
    if (seen.includes(name)) return {};
    return toJsonSchema(doc.components.schemas[name]!, doc, [...seen, name]);
  }
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties')
      out.properties = Object.fromEntries(Object.entries(schema.properties!).map(([k, v]) => [k, toJsonSchema(v, doc, seen)]));
    else out[key] = VALUES.has(key) ? value : convertChild(value, doc, seen);
  }
  return schema.nullable ? orNull(out) : out;
}

/** `T | null`, the description kept on the union where a model reads it. */
function orNull({ description, ...value }: SchemaNode): SchemaNode {
  return { ...(description === undefined ? {} : { description }), anyOf: [value, { type: 'null' }] };
}

/** A keyword's value: a schema, a list of them, or a plain value. */
function convertChild(value: unknown, doc: OpenApiDoc, seen: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => convertChild(v, doc, seen));
  if (value && typeof value === 'object') return toJsonSchema(value as SchemaNode, doc, seen);
  return value;
}

/** The operation with this operationId, with its method and path. */
export function findOperation(doc: OpenApiDoc, operationId: string): { method: string; path: string; op: Operation } {
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) if (op.operationId === operationId) return { method: method.toUpperCase(), path, op };
  }
  throw new Error(`MCP: no operation ${operationId} in the OpenAPI document`);
}

/** The first sentence of a description, at most 120 characters: the full text stays in svc://tools/{name}. */
export function brief(text: string): string {
  // A sentence ends at . ! or ? followed by the end or a capital: `A-Z a-z 0-9 . _` is not an end.
  const sentence = /^[\s\S]*?[.!?](?=\s+[A-Z(`*]|\s*$)/.exec(text)?.[0] ?? text;
  const line = sentence.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

const NESTED = ['properties', 'items', 'additionalProperties', 'patternProperties', 'required'];

/**
 * A smaller copy of a converted schema for tools/list: descriptions cut to their first sentence (or
 * dropped), and below `depth` levels of nesting only each value's type and description remain.
 */
export function compact(schema: SchemaNode, depth: number, descriptions: boolean): SchemaNode {
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description') {
      if (descriptions || value === GENERIC_ROW.description) out.description = brief(String(value));
    } else if (key === 'title' || (depth <= 0 && NESTED.includes(key))) continue;
    else if (key === 'properties')
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, SchemaNode>).map(([k, v]) => [k, compact(v, depth - 1, descriptions)]),
      );
    else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object'))
      out[key] = compact(value as SchemaNode, depth - 1, descriptions);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      out[key] = (value as SchemaNode[]).map((v) => compact(v, depth, descriptions));
    else out[key] = value;
  }
  return out;
}
