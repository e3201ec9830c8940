import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { PreviewService } from './service.js';
import { HotAnswers } from './hot-answers.js';
import { AnswerPages, registerAnswerPageRoute } from './answer-pages.js';
import { addPreviewRoute } from './routes-preview.js';
import { addBundleRoute } from './routes-bundle.js';

const PURGE_PAGES_EVERY_MS = 3_600_000;

/** What the data routes work with, built once by dataRoutes. */
export interface DataParts {
  ctx: AppContext;
  types: string[];
  previews: PreviewService;
  hot: HotAnswers;
  answerPages: AnswerPages;
}

/** The data types' own routes: the answer pages, the free preview and the paid bundle (registered in that order). */
export const dataRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { deps } = ctx;
  const types = deps.registry.types();
  const previews = new PreviewService(deps.sources, deps.repos.sourceHistory, ctx.cursors, deps.clock);
  const hot = new HotAnswers(deps.clock, (cacheKey) => deps.sources.generationOf(cacheKey));
  const answerPages = new AnswerPages(deps.repos.answerPages, deps.clock);
  ctx.jobs.push({ name: 'answer-pages-purge', everyMs: PURGE_PAGES_EVERY_MS, run: async () => void (await answerPages.purgeExpired()) });
  registerAnswerPageRoute(app, answerPages);

  const parts: DataParts = { ctx, types, previews, hot, answerPages };
  addPreviewRoute(app, parts);
  addBundleRoute(app, parts);
};
