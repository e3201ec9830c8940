import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { Job } from '../../scheduler/scheduler.js';
import { addAlertRoutes } from './routes-alerts.js';
import { addHistoryRoutes } from './routes-history.js';
import type { ProParts } from './routes-shared.js';

const DRIFT_EVERY_MS = 5 * 60_000;
const DELIVER_EVERY_MS = 30_000;

/** The calib-pro routes: drift alerts, history windows and the signed export; registered by the calibration feature. */
export const calibProRoutes =
  (parts: ProParts, jobs: Job[]): FastifyPluginAsync =>
  async (app) => {
    const { drift, webhooks } = parts;
    jobs.push({ name: 'calib-pro-drift', everyMs: DRIFT_EVERY_MS, run: async () => void (await drift.check()) });
    jobs.push({ name: 'calib-pro-webhooks', everyMs: DELIVER_EVERY_MS, run: async () => void (await webhooks.deliverDue()) });
    addAlertRoutes(app, parts);
    addHistoryRoutes(app, parts);
  };
