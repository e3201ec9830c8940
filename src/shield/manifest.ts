import { ApiError } from '../core/errors.js';

/** One tool as the audit sees it, whether it came from MCP tools/list or an OpenAPI operation. */
export interface AuditedTool {
  name: string;
  description: string;
  /** Every text a model reads besides the description: parameter descriptions, titles, enum values. */
  texts: string[];
  /** Input field names, dotted for nested ones. */
  fields: string[];
  annotations: Record<string, unknown>;
  /** OpenAPI only: the HTTP method and path, and whether the operation requires any security scheme. */
  http?: { method: string; path: string; authenticated: boolean };
  /** The tool's whole definition, hashed for rug-pull diffs. */
  definition: unknown;
}

export type ManifestFormat = 'mcp' | 'openapi';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const MAX_DEPTH = 6;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A local `$ref` (`#/components/...`) followed inside the document; anything else is left as it is. */
function deref(value: unknown, root: Json): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  const steps = value.$ref
    .slice(2)
    .split('/')
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  return steps.reduce<unknown>((node, step) => (isObject(node) ? node[step] : undefined), root);
}

/** Field names and texts of a JSON Schema, walking properties and items (and local $refs) a few levels deep. */
function walkSchema(raw: unknown, prefix: string, out: { fields: string[]; texts: string[] }, root: Json, depth = 0): void {
  const schema = deref(raw, root);
  if (!isObject(schema) || depth > MAX_DEPTH) return;
  for (const key of ['description', 'title']) if (str(schema[key])) out.texts.push(str(schema[key]));
  if (Array.isArray(schema.enum)) out.texts.push(...schema.enum.filter((v): v is string => typeof v === 'string'));
  if (isObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      out.fields.push(prefix + name);
      walkSchema(sub, `${prefix}${name}.`, out, root, depth + 1);
    }
  }
  if (schema.items) walkSchema(schema.items, prefix, out, root, depth + 1);
}

function mcpTools(tools: unknown[]): AuditedTool[] {
  return tools.filter(isObject).map((tool) => {
    const out = { fields: [] as string[], texts: [] as string[] };
    walkSchema(tool.inputSchema, '', out, isObject(tool.inputSchema) ? tool.inputSchema : {});
    if (str(tool.title)) out.texts.push(str(tool.title));
    return {
      name: str(tool.name) || '(unnamed)',
      description: str(tool.description),
      ...out,
      annotations: isObject(tool.annotations) ? tool.annotations : {},
      definition: tool,
    };
  });
}

function openApiTools(doc: Json): AuditedTool[] {
  const globalSecurity = Array.isArray(doc.security) ? doc.security : [];
  return Object.entries(isObject(doc.paths) ? doc.paths : {}).flatMap(([path, item]) =>
    METHODS.filter((m) => isObject(item) && isObject(item[m])).map((method) => {
      const op = (item as Json)[method] as Json;
      const out = { fields: [] as string[], texts: [] as string[] };
      const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((p) => deref(p, doc)).filter(isObject);
      for (const p of parameters) {
        out.fields.push(str(p.name));
        if (str(p.description)) out.texts.push(str(p.description));
        walkSchema(p.schema, `${str(p.name)}.`, out, doc);
      }
      const body = deref(op.requestBody, doc);
      const content = isObject(body) && isObject(body.content) ? Object.values(body.content) : [];
      for (const media of content.filter(isObject)) walkSchema(media.schema, '', out, doc);
      const security = Array.isArray(op.security) ? op.security : globalSecurity;
      // `security: [{}]` (an empty requirement) means anonymous access is one of the options.
      const authenticated = security.length > 0 && !security.some((s) => isObject(s) && Object.keys(s).length === 0);
      return {
        name: str(op.operationId) || `${method.toUpperCase()} ${path}`,
        description: [str(op.summary), str(op.description)].filter(Boolean).join('\n'),
        ...out,
        annotations: {},
        http: { method: method.toUpperCase(), path, authenticated },
        definition: { path, method, operation: op },
      };
    }),
  );
}

/** Tools of an MCP tools/list result (bare, or in a JSON-RPC envelope) or an OpenAPI 3 / Swagger 2 document; a 400 otherwise. */
export function parseManifest(manifest: Json): { format: ManifestFormat; tools: AuditedTool[] } {
  const result = isObject(manifest.result) ? manifest.result : manifest;
  if (Array.isArray(result.tools)) return { format: 'mcp', tools: mcpTools(result.tools) };
  if ((typeof manifest.openapi === 'string' || typeof manifest.swagger === 'string') && isObject(manifest.paths))
    return { format: 'openapi', tools: openApiTools(manifest) };
  throw new ApiError(
    'validation_failed',
    'manifest must be an MCP tools/list result ({tools: [...]}) or an OpenAPI document (openapi or swagger, and paths)',
    { field: 'manifest' },
  );
}
