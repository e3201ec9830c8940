import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { CalibrationRepo } from '../store/repos/calibration.js';
import { AgentCard, AgentId, ClaimBody, CurveResponse, Kind, OutcomeBody, Probability } from './schemas.js';
import { CalibrationService } from './service.js';

const RESOLVE_EVERY_MS = 60_000;

/** Price resolvers need a coin and a numeric threshold; a bad config is a 400 naming the field. */
function checkResolver(resolver: { type: string; config: Record<string, unknown> }): void {
  if (resolver.type === 'manual') return;
  if (typeof resolver.config.coin !== 'string' || !/^[a-z0-9-]+$/.test(resolver.config.coin)) {
    throw new ApiError('validation_failed', 'outcome_resolver.config.coin must be a CoinGecko id such as bitcoin', { field: 'outcome_resolver.config.coin', rule: 'pattern' });
  }
  if (typeof resolver.config.threshold_usd !== 'number' || !(resolver.config.threshold_usd > 0)) {
    throw new ApiError('validation_failed', 'outcome_resolver.config.threshold_usd must be a positive number', { field: 'outcome_resolver.config.threshold_usd', rule: 'exclusiveMinimum' });
  }
}

export const calibRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { deps } = ctx;
  const calib = new CalibrationService(new CalibrationRepo(deps.store.db), deps.clock, deps.sources);
  ctx.jobs.push({ name: 'calib-resolve', everyMs: RESOLVE_EVERY_MS, run: async () => void (await calib.resolveDue()) });
  const signed = { signed: true };
  const tags = ['calibration'];

  app.post(
    '/api/v1/calib/record_claim',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Record a confidence-weighted claim',
        description:
          'Returns the claim id, the calibrated probability for its bin and whether that bin has fewer than 30 resolved claims. A claim still unresolved ' +
          'at expected_resolution_at (now + ttl_hours) becomes `expired` and never enters the curves; price_above / price_below claims are resolved by svc then.',
        body: ClaimBody,
        response: {
          200: Type.Object({ claim_id: Type.String(), calibrated_p: Probability, low_confidence: Type.Boolean(), expected_resolution_at: Type.Integer() }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      checkResolver(request.body.outcome_resolver);
      return calib.recordClaim(request.body);
    },
  );

  app.post(
    '/api/v1/calib/record_outcome',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Record the outcome of a claim (once)',
        description: '404 `not_found` for an unknown claim; 409 `already_resolved` for a resolved or expired one (nothing changes). Of concurrent outcomes exactly one wins.',
        body: OutcomeBody,
        response: {
          200: Type.Object({ claim_id: Type.String(), status: Type.String(), outcome: Type.Integer(), calibrated_p: Probability }),
          ...errorResponses(400, 404, 409),
        },
      },
    },
    async (request) => calib.recordOutcome(request.body.claim_id, request.body.outcome, request.body.evidence ?? {}),
  );

  app.get(
    '/api/v1/calib/curve',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Reliability curve: 10 bins, ECE and Brier score',
        description: 'Bins [k/10, (k+1)/10], right-closed (p = 0 in the first). ECE = Σ n_b/N·|success_rate_b − avg_p_b| over non-empty bins; Brier = mean (p − o)². Read from per-bin aggregates.',
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
        description: 'With no resolved claims in that bin, calibrated_p is predicted_p itself (and low_confidence is true).',
        body: Type.Object({ agent_id: AgentId, kind: Kind, predicted_p: Probability }),
        response: {
          200: Type.Object({ calibrated_p: Probability, low_confidence: Type.Boolean(), sample_count: Type.Integer(), bin_index: Type.Integer() }),
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
        tags,
        summary: 'Portable signed agent card',
        description: 'Verify it offline with the key at /.well-known/svc-receipt-pubkey.json (see Receipts).',
        querystring: Type.Object({ agent_id: AgentId }),
        response: { 200: AgentCard, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const card = await calib.agentCard(request.query.agent_id);
      reply.provenance = { asOf: card.issued_at, sources: [] };
      return card;
    },
  );
};
