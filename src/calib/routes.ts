import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { AgentAuth } from './agent-auth.js';
import { CalibPro } from './pro/service.js';
import { DriftWatch } from './pro/drift.js';
import { Webhooks } from './pro/webhooks.js';
import { calibProRoutes } from './pro/routes.js';
import { addClaimRoutes } from './routes-claims.js';
import { addCurveRoutes } from './routes-curves.js';
import { addAgentKeyRoutes } from './routes-keys.js';

const RESOLVE_EVERY_MS = 60_000;
const PURGE_SIGNATURES_EVERY_MS = 3600_000;

/** Calibration: calib-pro first, then the ledger's writes, the public reads and the agents' keys (registered in that order). */
export const calibRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const calib = deps.calibration;
    const auth = new AgentAuth(deps.repos.agents, deps.clock);
    const proRepo = deps.repos.calibPro;
    const pro = new CalibPro(proRepo, calib, deps.clock);
    const webhooks = new Webhooks(proRepo, deps.signingKey, deps.clock, deps.config);
    const drift = new DriftWatch(proRepo, webhooks, deps.clock);
    await app.register(calibProRoutes({ deps, pro, repo: proRepo, auth, webhooks, drift }, ctx.jobs));
    ctx.jobs.push({ name: 'calib-resolve', everyMs: RESOLVE_EVERY_MS, run: async () => void (await calib.resolveDue()) });
    ctx.jobs.push({ name: 'agent-signatures-purge', everyMs: PURGE_SIGNATURES_EVERY_MS, run: async () => void (await auth.purge()) });

    const parts = { ctx, deps, auth, pro };
    addClaimRoutes(app, parts);
    addCurveRoutes(app, parts);
    addAgentKeyRoutes(app, parts);
  };
