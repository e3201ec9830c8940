import type { AppContext } from '../app-context.js';
import type { OlympicsService } from './service.js';
import type { Ticker } from './ticker.js';
import type { OlympicsViews } from './views.js';

/** What the olympics routes work with, built once by olympicsRoutes. */
export interface OlympicsParts {
  ctx: AppContext;
  olympics: OlympicsService;
  views: OlympicsViews;
  ticker: Ticker;
}

export const tags = ['olympics'];
export const COMMON = 'Public: no credentials needed. Answers 503 model_unavailable while no model serves the `panel` role (SVC_MODELS).';
