import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';

export const CatalogEntry = Type.Object({
  type: Type.String(),
  categories: Type.Array(Type.String()),
  example: Type.String({ description: 'a sample q; empty when the type takes none' }),
  desc: Type.String(),
});

export const catalogRoutes = ({ deps }: AppContext): FastifyPluginAsync => async (app) => {
  const body = {
    count: deps.registry.all().length,
    data_types: deps.registry.all().map((d) => ({
      type: d.type,
      categories: [...d.categories],
      example: d.example,
      desc: d.desc,
    })),
    landing: `${deps.config.publicUrl}/`,
  };

  app.get(
    '/api/v1/catalog',
    {
      schema: {
        tags: ['data'],
        summary: 'Machine-readable catalog of the data types',
        response: { 200: Type.Object({ count: Type.Integer(), data_types: Type.Array(CatalogEntry), landing: Type.String() }) },
      },
    },
    async () => body,
  );
};
