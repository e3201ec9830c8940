/**
 * OpenAPI 3.0 schemas → self-contained JSON Schema for MCP `inputSchema` / `outputSchema`:
 * `$ref`s inlined, `nullable` spelled as a type union, documentation-only keywords dropped.
 * Per-type rows stay generic here (they are resources at `svc://types/{type}`) so tool lists stay small.
 */
export type JsonSchema = Record<string, any>;

export interface OpenApiDoc {
  info: { version: string };
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, JsonSchema> };
}

const GENERIC_ROW: JsonSchema = { type: 'object', additionalProperties: true, description: 'A normalized row (snake_case, units in names, with source and as_of); its per-type schema is the resource svc://types/{type}' };
const DROPPED = new Set(['example', 'examples', 'nullable', 'xml', 'externalDocs', 'discriminator', 'readOnly', 'writeOnly', 'deprecated']);

export function toJsonSchema(schema: JsonSchema, doc: OpenApiDoc, seen: string[] = []): JsonSchema {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, doc, seen)) as unknown as JsonSchema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    if (name === 'Row' || /Row$/.test(name)) return GENERIC_ROW;
    if (seen.includes(name)) return {};
    return toJsonSchema(doc.components.schemas[name]!, doc, [...seen, name]);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, toJsonSchema(v, doc, seen)]));
    else if (value && typeof value === 'object' && key !== 'enum' && key !== 'required' && key !== 'default') out[key] = toJsonSchema(value, doc, seen);
    else out[key] = value;
  }
  if (schema.nullable && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** The operation with this operationId, with its method and path. */
export function findOperation(doc: OpenApiDoc, operationId: string): { method: string; path: string; op: any } {
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) if (op.operationId === operationId) return { method: method.toUpperCase(), path, op };
  }
  throw new Error(`MCP: no operation ${operationId} in the OpenAPI document`);
}
