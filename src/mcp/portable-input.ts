import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from './schema.js';

/**
 * Tool input schemas that every major client accepts as they are: OpenAI's strict tool mode converts a
 * schema only when every object is closed (`additionalProperties: false`) and every value is typed, and
 * the MCP Inspector and Gemini take a single `type` (no `["string", "null"]`).
 * Optional arguments stay optional: making them required-and-nullable is the strict client's job, and
 * the null it then sends for an unset argument is dropped at call time like an absent one.
 * A free-form value (a receipt, a response to verify, a manifest, a resolver's config) cannot be a
 * closed object, so the schema offers it as JSON text; an object is still taken as it is (decodeJsonText).
 */

/** Where a JSON-text argument sits: property names, `[]` for every item of an array. */
export type ArgumentPath = string[];

export interface PortableInput {
  schema: JsonSchema;
  jsonText: ArgumentPath[];
}

export const JSON_TEXT_NOTE = 'JSON text (an object also works)';

export function portableInput(schema: JsonSchema): PortableInput {
  const jsonText: ArgumentPath[] = [];
  const walk = (node: JsonSchema, path: ArgumentPath): JsonSchema => {
    const single = withoutNull(node);
    if (path.length && isFreeForm(single)) {
      jsonText.push(path);
      return { type: 'string', description: `${JSON_TEXT_NOTE}: ${single.description ?? 'any JSON value'}` };
    }
    const out: JsonSchema = { ...single, type: single.type ?? typeOfEnum(single.enum) };
    if (single.properties) {
      out.properties = Object.fromEntries(Object.entries(single.properties).map(([k, v]) => [k, walk(v, [...path, k])]));
      out.additionalProperties = false;
    }
    if (single.items) out.items = walk(single.items, [...path, '[]']);
    if (single.anyOf) out.anyOf = single.anyOf.map((branch) => walk(branch, path));
    if (out.type === undefined) delete out.type;
    return out;
  };
  return { schema: walk(schema, []), jsonText };
}

/** `T | null` as T: an unset optional argument is simply left out. */
function withoutNull(node: JsonSchema): JsonSchema {
  if (Array.isArray(node.type)) {
    const types = node.type.filter((t) => t !== 'null');
    return { ...node, type: types.length === 1 ? types[0] : types };
  }
  const branches = node.anyOf?.filter((branch) => branch.type !== 'null');
  if (branches?.length !== 1 || branches.length === node.anyOf!.length) return node;
  const { anyOf: _anyOf, ...rest } = node;
  return { ...branches[0], ...rest };
}

/** Any value, or an object whose keys are not declared: nothing a closed schema can say. */
const isFreeForm = (node: JsonSchema) =>
  (node.type === undefined && !node.enum && !node.anyOf && !node.const) ||
  (node.type === 'object' && !Object.keys(node.properties ?? {}).length);

function typeOfEnum(values: unknown): string | undefined {
  if (!Array.isArray(values) || !values.length) return undefined;
  if (values.every((v) => Number.isInteger(v))) return 'integer';
  const kinds = new Set(values.map((v) => typeof v));
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

/** The arguments with each JSON-text value parsed, or a refusal naming the argument whose text is not JSON. */
export function decodeJsonText(
  args: Record<string, unknown>,
  paths: ArgumentPath[],
): { args: Record<string, unknown> } | { refusal: CallToolResult } {
  let decoded: Record<string, unknown> = args;
  for (const path of paths) {
    try {
      decoded = parsedAt(decoded, path) as Record<string, unknown>;
    } catch {
      const field = path.filter((p) => p !== '[]').join('.');
      const body = { error: 'bad_request', message: `${field} must be JSON text or a JSON value`, details: { field, rule: 'json_text' } };
      return { refusal: { content: [{ type: 'text', text: body.message }], structuredContent: body, isError: true } };
    }
  }
  return { args: decoded };
}

/** A copy of `value` with the string at `path` parsed as JSON; anything else is left as it is. */
function parsedAt(value: unknown, path: ArgumentPath): unknown {
  if (!path.length) return typeof value === 'string' ? JSON.parse(value) : value;
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) ? value.map((item) => parsedAt(item, rest)) : value;
  if (!value || typeof value !== 'object' || Array.isArray(value) || !(head! in value)) return value;
  const record = value as Record<string, unknown>;
  return { ...record, [head!]: parsedAt(record[head!], rest) };
}
