import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { rowComponentName } from '../plugins/openapi-rows.js';
import { completion } from './completions.js';
import type { OpenApiDoc } from './schema.js';
import type { BuiltTool } from './tools.js';
import { PAGE_TOKENS, tokenCounter } from './budget.js';
import { paginate } from '../core/paginate.js';

export interface CatalogEntry {
  type: string;
  categories: string[];
  example: string;
  desc: string;
}

type Get = (path: string, query?: Record<string, string>) => Promise<unknown>;

/** What the resources are read from: the service's own routes, its OpenAPI document and the tools the selection reaches. */
export interface ResourceSources {
  doc: OpenApiDoc;
  get: Get;
  catalog: () => Promise<{ data_types: CatalogEntry[] }>;
  anyTool: Map<string, BuiltTool>;
}

/** Compact JSON: indentation would spend a model's tokens on spaces. */
const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }] });

const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'svc://types/{type}',
    name: 'type',
    title: 'One data type',
    description: 'A data type: q shape, example and the JSON Schema of its rows',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'svc://entities{?page}',
    name: 'entities-page',
    title: 'One page of the entity list',
    description: 'Page n of svc://entities (each under the token budget); a page names the next as nextCursor',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'svc://tools/{name}',
    name: 'tool',
    title: 'One tool in full',
    description: 'A tool’s whole definition: the operation’s description and its input and output schemas uncut',
    mimeType: 'application/json',
  },
];

/** The resources at a fixed URI, each read from one route. */
function fixedResources(get: Get) {
  return [
    {
      uri: 'svc://catalog',
      name: 'catalog',
      title: 'Data type catalog',
      description: 'Every data type with its categories, q shape and an example q',
      read: () => get('/api/v1/catalog'),
    },
    {
      uri: 'svc://receipt-key',
      name: 'receipt-key',
      title: 'Receipt public key',
      description: 'Ed25519 key (SPKI and JWK) that signs every _receipt',
      read: () => get('/.well-known/svc-receipt-pubkey.json'),
    },
    {
      uri: 'svc://entities',
      name: 'entities',
      title: 'Entity list',
      description: 'Canonical entities (svc-ent:…) usable as `entity` in query, in pages: nextCursor is the URI of the next',
      read: () => entityPage(get, 1),
    },
  ];
}

/** The resources (catalog, receipt key, entities, each type and tool), their templates and the completion of their variables. */
export function serveResources(server: Server, { doc, get, catalog, anyTool }: ResourceSources): void {
  const RESOURCES = fixedResources(get);
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...RESOURCES.map(({ read: _read, ...r }) => ({ ...r, mimeType: 'application/json' })),
      ...(await catalog()).data_types.map((d) => ({
        uri: `svc://types/${d.type}`,
        name: d.type,
        description: d.desc,
        mimeType: 'application/json',
      })),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const fixed = RESOURCES.find((r) => r.uri === uri);
    if (fixed) return json(uri, await fixed.read());
    const entitiesPage = /^svc:\/\/entities\?page=(\d+)$/.exec(uri)?.[1];
    if (entitiesPage) return json(uri, await entityPage(get, Number(entitiesPage)));
    const toolName = /^svc:\/\/tools\/([a-z_]+)$/.exec(uri)?.[1];
    const tool = toolName ? anyTool.get(toolName) : undefined;
    if (tool) return json(uri, tool.full);
    const type = /^svc:\/\/types\/([a-z0-9-]+)$/.exec(uri)?.[1];
    const entry = type ? (await catalog()).data_types.find((d) => d.type === type) : undefined;
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
    const row = doc.components.schemas[rowComponentName(entry.type)];
    return json(uri, { ...entry, query: { tool: 'query', arguments: { type: entry.type, q: entry.example } }, row_schema: row ?? null });
  });

  // The resource templates' variables have known values: the registry's types and the tools this selection reaches.
  server.setRequestHandler(CompleteRequestSchema, async ({ params: { ref, argument } }) => {
    const template = ref.type === 'ref/resource' ? `${ref.uri}#${argument.name}` : undefined;
    if (template === 'svc://types/{type}#type')
      return completion(
        (await catalog()).data_types.map((d) => d.type),
        argument.value,
      );
    if (template === 'svc://tools/{name}#name') return completion([...anyTool.keys()], argument.value);
    return completion([], argument.value);
  });
}

/** Page `n` (from 1) of the entity list cut to the token budget, with the URI of the next as `nextCursor`. */
async function entityPage(get: Get, n: number) {
  const tokens = await tokenCounter();
  const pages = paginate(await allEntities(get), tokens, tokens, PAGE_TOKENS);
  const page = pages[n - 1];
  if (!page) throw new McpError(ErrorCode.InvalidParams, `svc://entities has ${pages.length} pages`);
  const { count, entities } = page.value as { count: number; entities: unknown[] };
  const next = n < pages.length ? { nextCursor: `svc://entities?page=${n + 1}` } : {};
  return { total: count, page: n, pages: pages.length, entities, ...next };
}

/** Every entity, page by page (the list route caps a page at 200). */
async function allEntities(get: Get) {
  const entities: unknown[] = [];
  for (let offset = 0; ;) {
    const page = (await get('/api/v1/entity/list', { limit: '200', offset: String(offset) })) as { total: number; entities: unknown[] };
    entities.push(...page.entities);
    offset += page.entities.length;
    if (!page.entities.length || offset >= page.total) return { count: entities.length, entities };
  }
}
