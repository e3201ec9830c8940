import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { PageFields, PageQuery, StringEnum, errorResponses } from '../core/schemas.js';
import { TOKEN_BUDGET, prefixWithin, tokenCounter } from '../core/token-budget.js';
import type { AppContext } from '../app-context.js';
import type { RouteApp } from '../core/route-app.js';
import type { EntityGraph } from './graph.js';
import { CLASS_CODES, ENTITY_TYPES, EntitySchema, loadDataset } from './dataset.js';
import { citation } from '../core/curated.js';
import { AMBIGUITY_MARGIN } from './resolver.js';

/** A page of entities keeps under the token budget with room for its envelope; the rest is at next_offset. */
const ENTITY_TOKENS = TOKEN_BUDGET - 1_000;
/** Entity records come from the curated dataset: responses cite its origin. */
const Source = Type.String({ description: "the curated dataset's origin: `curated: <publisher>; <urls>; retrieved <date>`" });
const datasetSource = () => `curated: ${citation(loadDataset().origin)}`;

const tags = ['entity'];

const Match = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  confidence: Type.Number({ description: '1 for an exact identifier, name or alias match; (0, 1) for fuzzy name and alias matches' }),
  matched_on: Type.String({
    description: 'which identifier matched (ticker, isin, cusip, coingecko, contract:<chain>, …), or name / alias',
  }),
});

/** Entities: resolving names and identifiers, then listing and reading records (registered in that order). */
export const entityRoutes =
  ({ entities }: AppContext): FastifyPluginAsync =>
  async (app) => {
    addResolveRoute(app, entities);
    addRecordRoutes(app, entities);
  };

/** Names, tickers, ISIN, CUSIP, provider ids or contract addresses to entity ids, with a confidence each. */
function addResolveRoute(app: RouteApp, entities: EntityGraph): void {
  const classes = Object.entries(CLASS_CODES)
    .map(([type, code]) => `${code} = ${type}`)
    .join(', ');

  app.get(
    '/api/v1/entity/resolve',
    {
      config: { signed: true },
      schema: {
        tags,
        summary: 'Resolve names, tickers, ISIN, CUSIP, provider ids or contract addresses to entities',
        description: `Exact identifiers, names and aliases first (confidence 1), then typo-tolerant names and aliases (below 1). \`ambiguous: true\` when the top two are within ${AMBIGUITY_MARGIN} (two exact matches included). Ids: svc-ent:<class>.<slug> with ${classes}.`,
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 200 }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
        }),
        response: {
          200: Type.Object({ count: Type.Integer(), query: Type.String(), ambiguous: Type.Boolean(), matches: Type.Array(Match) }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      const { q, limit = 5 } = request.query;
      const { matches, ambiguous } = entities.resolver.resolve(q, limit);
      return { count: matches.length, query: q, ambiguous, matches };
    },
  );
}

/** The curated records: a page of them by type and category, and one with the data types it works with. */
function addRecordRoutes(app: RouteApp, entities: EntityGraph): void {
  app.get(
    '/api/v1/entity/list',
    {
      schema: {
        tags,
        summary: 'List entities by type and category',
        querystring: Type.Object({
          type: Type.Optional(StringEnum(ENTITY_TYPES)),
          category: Type.Optional(Type.String({ maxLength: 64 })),
          ...PageQuery,
        }),
        response: {
          200: Type.Object({
            ...PageFields,
            next_offset: Type.Optional(
              Type.Integer({
                description: 'where the next page starts, when entities remain (a page is cut short to fit the token budget)',
              }),
            ),
            source: Source,
            entities: Type.Array(EntitySchema),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      const { type, category, limit = 50, offset = 0 } = request.query;
      const page = entities.resolver.list({ type, category, limit, offset });
      const listed = prefixWithin(page.entities, ENTITY_TOKENS, await tokenCounter());
      const next = offset + listed.length < page.total ? { next_offset: offset + listed.length } : {};
      return { count: listed.length, total: page.total, limit, offset, ...next, source: datasetSource(), entities: listed };
    },
  );

  app.get(
    '/api/v1/entity/:id',
    {
      config: { signed: true },
      schema: {
        tags,
        summary: 'Entity record with the data types it works with and ready-to-run calls',
        params: Type.Object({ id: Type.String({ maxLength: 120 }) }),
        response: {
          200: Type.Intersect([
            EntitySchema,
            Type.Object({
              supported_types: Type.Array(Type.String()),
              example_calls: Type.Array(Type.String({ description: 'ready-to-run preview URL' })),
              source: Source,
            }),
          ]),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => {
      const entity = entities.entity(request.params.id);
      const supported = entities.supportedTypes(entity).map((s) => s.type);
      return { ...entity, supported_types: supported, example_calls: entities.exampleCalls(entity), source: datasetSource() };
    },
  );
}
