import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { Availability } from '../status/schemas.js';
import { watchPlan } from '../stream/watch.js';
import { qForms } from '../sources/vocabulary.js';

export const CatalogEntry = Type.Object({
  type: Type.String(),
  categories: Type.Array(Type.String()),
  example: Type.String({ description: 'a sample q; empty when the type takes none' }),
  desc: Type.String(),
  q_forms: Type.Array(Type.String(), {
    description:
      'every form of q the type accepts, the same on every endpoint (preview, bundle, backtest, stream, MCP, calibration): its own shapes, ' +
      'then entity ids (svc-ent:…) where the type can use entities',
  }),
  upstreams: Type.Array(Type.String(), {
    description:
      'where rows come from, primary first: upstream hosts, then `curated` for a data file that cites its origin; a type with none answers ok:false (no_upstream)',
  }),
  live_stream: Type.Boolean({
    description:
      "whether the /api/data/stream poller asks for this type (SVC_STREAM_WATCH; docs/streams.md); every type's fresh answers are streamed either way",
  }),
  availability: Availability,
});

export const catalogRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const streamed = new Set(watchPlan(deps.registry, deps.config.streamWatch).map((entry) => entry.type));
    const entries = deps.registry.all().map((d) => ({
      type: d.type,
      categories: [...d.categories],
      example: d.example,
      desc: d.desc,
      q_forms: qForms(d),
      upstreams: [...Object.keys(d.upstreams), ...(d.curated ? ['curated'] : [])],
      live_stream: streamed.has(d.type),
    }));
    const landing = `${deps.config.publicUrl}/`;

    app.get(
      '/api/v1/catalog',
      {
        schema: {
          tags: ['data'],
          summary: 'Machine-readable catalog of the data types',
          response: { 200: Type.Object({ count: Type.Integer(), data_types: Type.Array(CatalogEntry), landing: Type.String() }) },
        },
      },
      async () => {
        const availability = await deps.status.availability();
        const dataTypes = entries.map((entry) => ({ ...entry, availability: availability.get(entry.type)! }));
        return { count: entries.length, data_types: dataTypes, landing };
      },
    );
  };
