import { readFileSync } from 'node:fs';
import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';

const Cam = Type.Object({
  id: Type.String(),
  title: Type.String(),
  location: Type.String(),
  kind: Type.String({ description: 'youtube_live (an iframe src) or page (a page to open or frame)' }),
  embed_url: Type.String(),
  page_url: Type.String(),
  operator: Type.String(),
});

/** The curated list lives in a versioned data file next to this module. */
const CAMS = JSON.parse(readFileSync(new URL('./cams.v1.json', import.meta.url), 'utf8')) as { as_of: number; cams: Type.Static<typeof Cam>[] };

export const camsRoutes = (_ctx: AppContext): FastifyPluginAsync => async (app) => {
  app.get(
    '/api/v1/cams',
    {
      schema: {
        tags: ['data'],
        summary: 'Four curated public live-camera embeds',
        response: { 200: Type.Object({ count: Type.Integer(), as_of: Type.Integer(), cams: Type.Array(Cam) }) },
      },
    },
    async () => ({ count: CAMS.cams.length, as_of: CAMS.as_of, cams: CAMS.cams }),
  );
};
