import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * What the major clients require of a tool's schemas, as misses naming the tool and the property.
 * Input, OpenAI strict tool mode ("Structured Outputs: supported schemas"): the root is an object and not
 * a union; every object is closed (`additionalProperties: false`) and declares its properties; every
 * value has a type; no composition keywords (allOf, not, if/then/else, dependent*; oneOf is refused,
 * anyOf is the union); at most 10 levels of objects, 5,000 properties and 1,000 enum values; tool names
 * match ^[a-zA-Z0-9_-]{1,64}$. "required" lists every property only after the client's conversion
 * (optional arguments stay optional for MCP), so it is checked to name declared properties only.
 * Input and output, portability (MCP Inspector, Gemini): one `type` per node, never an array of types.
 */
type Schema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  required?: string[];
  enum?: unknown[];
};

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const REFUSED = ['oneOf', 'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', '$ref'];
const LIMITS = { depth: 10, properties: 5000, enumValues: 1000 };

export function inputSchemaMisses(tool: Tool): string[] {
  const misses: string[] = [];
  const miss = (path: string, rule: string) => misses.push(`${tool.name}: inputSchema${path}: ${rule}`);
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) miss('', 'tool name outside ^[a-zA-Z0-9_-]{1,64}$');
  const root = tool.inputSchema as Schema;
  if (root.type !== 'object' || root.anyOf) miss('', 'root must be an object, not a union');
  const counts = { properties: 0, enumValues: 0 };
  const walk = (node: Schema, path: string, depth: number) => {
    for (const keyword of REFUSED) if (keyword in node) miss(path, `${keyword} is not supported`);
    if (node.anyOf) return node.anyOf.forEach((branch, i) => walk(branch, `${path}.anyOf[${i}]`, depth));
    if (Array.isArray(node.type)) miss(path, `type array ${JSON.stringify(node.type)} (use one type, or anyOf)`);
    else if (!TYPES.has(node.type as string)) miss(path, 'untyped');
    if (node.enum && node.type) checkEnum(node, path, miss, counts);
    if (node.type === 'array') {
      if (node.items) walk(node.items, `${path}.items`, depth);
      else miss(path, 'array without items');
    }
    if (node.type !== 'object') return;
    if (depth > LIMITS.depth) miss(path, `objects nested deeper than ${LIMITS.depth}`);
    if (node.additionalProperties !== false) miss(path, 'object not closed (additionalProperties must be false)');
    const properties = Object.entries(node.properties ?? {});
    if (!properties.length) miss(path, 'object declares no properties');
    for (const name of node.required ?? []) if (!node.properties?.[name]) miss(path, `required names undeclared ${name}`);
    counts.properties += properties.length;
    for (const [name, value] of properties) walk(value, `${path}.properties.${name}`, depth + 1);
  };
  walk(root, '', 1);
  if (counts.properties > LIMITS.properties) miss('', `${counts.properties} properties (limit ${LIMITS.properties})`);
  if (counts.enumValues > LIMITS.enumValues) miss('', `${counts.enumValues} enum values (limit ${LIMITS.enumValues})`);
  return misses;
}

function checkEnum(node: Schema, path: string, miss: (path: string, rule: string) => void, counts: { enumValues: number }) {
  counts.enumValues += node.enum!.length;
  const fits = (v: unknown) => (node.type === 'integer' ? Number.isInteger(v) : node.type === 'null' ? v === null : typeof v === node.type);
  const misfit = node.enum!.find((v) => !fits(v));
  if (misfit !== undefined) miss(path, `enum value ${JSON.stringify(misfit)} is not a ${String(node.type)}`);
}

/** Output schemas: portability only (strict mode applies to what a model writes, not to what it reads). */
export function outputSchemaMisses(tool: Tool): string[] {
  const misses: string[] = [];
  const walk = (node: Schema, path: string) => {
    if (Array.isArray(node.type)) misses.push(`${tool.name}: outputSchema${path}: type array ${JSON.stringify(node.type)}`);
    for (const [name, value] of Object.entries(node.properties ?? {})) walk(value, `${path}.properties.${name}`);
    if (node.items) walk(node.items, `${path}.items`);
    node.anyOf?.forEach((branch, i) => walk(branch, `${path}.anyOf[${i}]`));
  };
  if (tool.outputSchema) walk(tool.outputSchema as Schema, '');
  return misses;
}
