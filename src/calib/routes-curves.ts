import Type from 'typebox';
import { errorResponses } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { AgentCard, AgentId, CurveResponse, Kind, Probability } from './schemas.js';
import { PUBLIC, proTags, signed, tags, type CalibParts } from './routes-shared.js';

/** The public reads of an agent's record: its curve, the calibration of one probability, and its signed card. */
export function addCurveRoutes(app: RouteApp, { deps, pro }: CalibParts): void {
  const calib = deps.calibration;
  app.get(
    '/api/v1/calib/curve',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Reliability curve: 10 bins, ECE and Brier score',
        description:
          'Bins [k/10, (k+1)/10], right-closed (p = 0 in the first). ECE = Σ n_b/N·|success_rate_b − avg_p_b| over non-empty bins; Brier = mean (p − o)². Read from per-bin aggregates. ' +
          `verified_outcomes + self_reported_outcomes = resolved_claims tells a record svc checked from a self-graded one. ${PUBLIC}`,
        querystring: Type.Object({ agent_id: AgentId, kind: Kind }),
        response: { 200: CurveResponse, ...errorResponses(400) },
      },
    },
    async (request) => calib.curve(request.query.agent_id, request.query.kind),
  );

  app.post(
    '/api/v1/calib/calibrate_p',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Map a predicted probability to the historical success rate of its bin',
        description: `With no resolved claims in that bin, calibrated_p is predicted_p itself (and low_confidence is true). A read: nothing is stored. ${PUBLIC}`,
        body: Type.Object({ agent_id: AgentId, kind: Kind, predicted_p: Probability }),
        response: {
          200: Type.Object({
            calibrated_p: Probability,
            low_confidence: Type.Boolean(),
            sample_count: Type.Integer(),
            bin_index: Type.Integer(),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => calib.calibrateP(request.body.agent_id, request.body.kind, request.body.predicted_p),
  );

  app.get(
    '/api/v1/calib/agent_card',
    {
      config: signed,
      schema: {
        tags: proTags,
        summary: 'Portable signed agent card',
        description:
          `Verify it offline with the key at /.well-known/svc-receipt-pubkey.json (see Receipts). Each kind counts its verified_outcomes (checked by svc) and self_reported_outcomes. ` +
          '`product` is calib-pro while the agent is on the paid tier: its card then shows `outcomes: verified_only`, i.e. resolved, ece, brier and miscalibration come from outcomes svc ' +
          `verified alone (self_reported_outcomes still counts the ones left out); free agents' cards (\`outcomes: all\`) count both. ${PUBLIC}`,
        querystring: Type.Object({ agent_id: AgentId }),
        response: { 200: AgentCard, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const card = await pro.card(request.query.agent_id);
      reply.provenance = { asOf: card.issued_at, sources: [] };
      return card;
    },
  );
}
