import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { ConcurrencyLimiter } from '../cache/concurrency.js';
import { AgentSessionService, PULSE_MS } from './service.js';
import { ScreenshotQuotas } from './screenshots.js';
import { registerHistoryRoute } from './history.js';
import type { SessionParts } from './routes-shared.js';
import { addSessionWriteRoutes } from './routes-writes.js';
import { addWatchRoutes } from './routes-watch.js';
import { addPageRoutes, addScreenshotRoute } from './routes-pages.js';

const SWEEP_EVERY_MS = 60_000;

/** Live agent sessions: the agent's writes, the public reads and stream, the history, then what browsers load (in that order). */
export const agentSessionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const settings = { publicUrl: deps.config.publicUrl, ...deps.config.session };
    const limiter = new ConcurrencyLimiter(deps.cache, deps.clock);
    const images = new ScreenshotQuotas(deps.repos.agentSessions, deps.cache, deps.clock, deps.config.session.images);
    const sessions = new AgentSessionService(deps.repos.agentSessions, deps.bus, limiter, deps.clock, settings, images, deps.background);
    ctx.jobs.push({ name: 'agent-session-sweep', everyMs: SWEEP_EVERY_MS, run: async () => void (await sessions.sweep()) });
    const pulse = setInterval(
      () => void sessions.pulse().catch((err: unknown) => app.log.warn({ err }, 'session pulse failed')),
      PULSE_MS,
    ).unref();
    // Before the server waits for open connections to finish: end the streams so it need not wait forever.
    app.addHook('preClose', async () => {
      clearInterval(pulse);
      await sessions.close();
    });
    app.addHook('onClose', async () => limiter.close());

    const parts: SessionParts = { sessions, settings, tags: ['sessions'] };
    addSessionWriteRoutes(app, parts);
    addWatchRoutes(app, parts);
    registerHistoryRoute(app, sessions, parts.tags);
    addScreenshotRoute(app, parts);
    addPageRoutes(app, parts);
  };
