import Type from 'typebox';
import { errorResponses, SECURITY } from '../../core/schemas.js';
import type { RouteApp } from '../../core/route-app.js';
import { AUTH_DESCRIPTION } from '../agent-auth.js';
import { AgentId, Bin, Kind } from '../schemas.js';
import { EXPORT_RULES, exportHistory } from './export.js';
import { HISTORY_WINDOWS } from './service.js';
import { Nullable, PRO_ONLY, tags, type ProParts } from './routes-shared.js';

const HistoryWindow = Type.Object({
  window: Type.String({ description: '30d, 90d or 365d' }),
  from: Type.Integer({ description: 'Unix s: outcomes resolved after it count' }),
  resolved: Type.Integer(),
  verified_outcomes: Type.Integer(),
  self_reported_outcomes: Type.Integer(),
  ece: Nullable('null without resolved claims'),
  brier: Nullable('null without resolved claims'),
  miscalibration: Type.String(),
  bins: Type.Array(Bin),
});

/** The agent's record over time: windowed calibration (public) and the signed export of every claim (the agent only). */
export function addHistoryRoutes(app: RouteApp, { deps, pro, repo, auth }: ProParts): void {
  app.get(
    '/api/v1/calib/pro/history',
    {
      config: { signed: true },
      schema: {
        tags,
        summary: "calib-pro: one kind's calibration over the last 30, 90 and 365 days",
        description:
          `Each window holds the outcomes resolved in its last ${Object.values(HISTORY_WINDOWS).join(', ')} days (verified and self-reported, counted apart): curve bins, ECE, Brier and the card's miscalibration label. ` +
          `Public, like the agent's curves. ${PRO_ONLY}`,
        querystring: Type.Object({ agent_id: AgentId, kind: Kind }),
        response: {
          200: Type.Object({
            agent_id: Type.String(),
            kind: Type.String(),
            product: Type.String(),
            pro_until: Type.Union([Type.Integer(), Type.Null()]),
            as_of: Type.Integer(),
            windows: Type.Array(HistoryWindow),
          }),
          ...errorResponses(400, 403),
        },
      },
    },
    async (request, reply) => {
      const history = await pro.history(request.query.agent_id, request.query.kind);
      reply.provenance = { asOf: history.as_of, sources: [] };
      return history;
    },
  );

  app.get(
    '/api/v1/calib/pro/export',
    {
      schema: {
        security: SECURITY.agent,
        tags,
        summary: "calib-pro: the agent's whole claim history as signed JSON Lines",
        description: `${EXPORT_RULES} Only the agent itself may export. ${PRO_ONLY} ${AUTH_DESCRIPTION}`,
        querystring: Type.Object({ agent_id: AgentId }),
        response: {
          200: { description: 'JSON Lines, one signed claim per line', content: { 'application/x-ndjson': { schema: Type.String() } } },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { agent_id } = request.query;
      await auth.authorize(request, agent_id, { mayCreate: false });
      await pro.requirePro(agent_id);
      const body = await exportHistory(repo, deps.signingKey, deps.config.issuer, agent_id, Math.floor(deps.clock.now() / 1000));
      return reply.type('application/x-ndjson').send(body);
    },
  );
}
