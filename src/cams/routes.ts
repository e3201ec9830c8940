import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { citation, curatedFile, Origin } from '../core/curated.js';

const Cam = Type.Object({
  id: Type.String(),
  title: Type.String(),
  location: Type.String(),
  kind: Type.String({ description: 'youtube_live (an iframe src) or page (a page to open or frame)' }),
  embed_url: Type.String(),
  page_url: Type.String(),
  operator: Type.String(),
});

/** The curated list lives in a versioned data file next to this module, with its origin. */
const CAMS = curatedFile(
  new URL('./cams.v1.json', import.meta.url),
  Type.Object({ version: Type.Literal(1), origin: Origin, as_of: Type.Integer(), source_note: Type.String(), cams: Type.Array(Cam) }),
)();

export const camsRoutes =
  (_ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/api/v1/cams',
      {
        schema: {
          tags: ['data'],
          summary: 'Four curated public live-camera embeds',
          response: {
            200: Type.Object({
              count: Type.Integer(),
              as_of: Type.Integer(),
              source: Type.String({ description: "the curated list's origin: `curated: <publisher>; <urls>; retrieved <date>`" }),
              cams: Type.Array(Cam),
            }),
          },
        },
      },
      async () => ({ count: CAMS.cams.length, as_of: CAMS.as_of, source: `curated: ${citation(CAMS.origin)}`, cams: CAMS.cams }),
    );
  };
