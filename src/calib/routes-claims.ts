import Type from 'typebox';
import { ApiError } from '../core/errors.js';
import { errorResponses, SECURITY, StringEnum } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { signableOrThrow } from '../plugins/signing.js';
import { PRICES, usd } from '../payments/pricing.js';
import { sendStoredAnswer } from '../payments/answers.js';
import { answerBareProbes } from '../payments/probes.js';
import { AgentKey, ClaimBody, OutcomeBody, Probability, ProductFields, ResolverStatus } from './schemas.js';
import { AUTH_DESCRIPTION } from './agent-auth.js';
import { checkResolver } from './resolvers/registry.js';
import { PRODUCT_TAG, PRO_DAYS } from './pro/service.js';
import { RESERVED, proTags, signed, tags, write, type CalibParts } from './routes-shared.js';

const RECORD_CLAIM_DESCRIPTION =
  'Returns the claim id, the calibrated probability for its bin and whether that bin has fewer than 30 resolved claims. A claim still unresolved ' +
  'at expected_resolution_at (now + ttl_hours) becomes `expired` and never enters the curves; claims with a resolver svc runs are resolved by svc then (see outcome_resolver; `outcome_resolver.run_by_svc` in the answer says which). ' +
  'The first write for a new agent_id creates the agent and returns its `agent_key` (shown once, stored only as a SHA-256 hash). ' +
  `${AUTH_DESCRIPTION} ${RESERVED} Nothing is stored when the answer cannot be built. ` +
  `**calib-pro**: with \`product=calib-pro\` the claim costs ${usd(PRICES.calibProClaim)} USDC through x402 (402 with the challenge until paid) or is covered by a day or week pass ` +
  `(\`X-Svc-Pass: svc-pass_…\`, since Authorization carries the agent key); each such claim keeps the agent on calib-pro for ${PRO_DAYS} days. ` +
  'It is for an existing agent: a new agent_id records its first claim free (the answer that carries its agent_key); ' +
  'a paid first claim is a 400 and its payment is released. ' +
  '`product` and `pro_until` in the answer say where the agent stands; without the parameter nothing is charged and the free ledger works as before.';

/** The ledger's writes, in this order: claims (free, or paid calib-pro ones) and their outcomes. */
export function addClaimRoutes(app: RouteApp, parts: CalibParts): void {
  addRecordClaim(app, parts);
  addRecordOutcome(app, parts);
}

function addRecordClaim(app: RouteApp, { ctx, deps, auth, pro }: CalibParts): void {
  const calib = deps.calibration;
  const proClaim = {
    amount: PRICES.calibProClaim,
    resource: `${deps.config.publicUrl}/api/v1/calib/record_claim`,
    description: 'svc calib-pro claim',
  };
  const challengeProbe = answerBareProbes(app, '/api/v1/calib/record_claim', ctx.payments, (request) =>
    (request.query as { product?: string }).product === PRODUCT_TAG ? proClaim : undefined,
  );
  app.post(
    '/api/v1/calib/record_claim',
    {
      config: signed,
      ...write,
      preValidation: challengeProbe,
      schema: {
        security: [...SECURITY.agentOrNew, { agentKey: [], x402: [] }, { agentKey: [], passHeader: [] }],
        tags: proTags,
        summary: 'Record a confidence-weighted claim (free, or a paid calib-pro claim)',
        description: RECORD_CLAIM_DESCRIPTION,
        querystring: Type.Object({
          product: Type.Optional(StringEnum([PRODUCT_TAG] as const, { examples: [PRODUCT_TAG], description: 'calib-pro: a paid claim' })),
        }),
        body: ClaimBody,
        response: {
          200: Type.Object({
            claim_id: Type.String(),
            calibrated_p: Probability,
            low_confidence: Type.Boolean(),
            expected_resolution_at: Type.Integer(),
            outcome_resolver: ResolverStatus,
            agent_key: Type.Optional(AgentKey),
            ...ProductFields,
          }),
          ...errorResponses(400, 401, 402, 403),
        },
      },
    },
    async (request, reply) => {
      checkResolver(request.body.outcome_resolver, deps.registry);
      const agentId = request.body.agent_id;
      const grant = await auth.authorize(request, agentId, { mayCreate: true });
      const payment = request.query.product === PRODUCT_TAG ? await ctx.payments.authorize(request, proClaim) : undefined;
      if (request.query.product === PRODUCT_TAG && !payment) throw ctx.payments.challenge(request, proClaim);
      if (payment?.stored) return sendStoredAnswer(reply, payment.stored);
      // A paid answer is kept for retries: it must not hold an agent_key, which svc keeps only hashed.
      if (payment && grant.status === 'new') {
        throw new ApiError(
          'bad_request',
          'calib-pro claims are for existing agents: record the first claim free (it returns the agent_key), then pay',
          {
            field: 'product',
          },
        );
      }
      const newAgent = grant.status === 'new' ? grant.credential : undefined;
      const answer = await calib.recordClaim(request.body, { newAgent, seal: signableOrThrow(request) });
      const status = payment
        ? await pro.recordPaidClaim(agentId, answer.claim_id, { method: payment.method, ref: payment.authKey })
        : await pro.status(agentId);
      if (payment) reply.headers(await ctx.payments.finish(request, payment, { charge: true }));
      return grant.status === 'new' ? { ...answer, agent_key: grant.agentKey, ...status } : { ...answer, ...status };
    },
  );
}

function addRecordOutcome(app: RouteApp, { deps, auth }: CalibParts): void {
  const calib = deps.calibration;
  app.post(
    '/api/v1/calib/record_outcome',
    {
      config: signed,
      ...write,
      schema: {
        security: SECURITY.agent,
        tags,
        summary: 'Record the outcome of a claim (once), as a self-reported outcome',
        description:
          `Only the claim's agent may: ${AUTH_DESCRIPTION} ${RESERVED} ` +
          'Outcomes recorded here are stored and counted as `self_reported`; those svc checks itself (its resolvers, the arena) as `verified`, and curves and agent cards show both counts. ' +
          'Any unresolved claim can be resolved here, also one whose resolver svc runs: the outcome is stored as `self_reported` and svc no longer runs the resolver ' +
          'for it (`outcome_resolver` in the answer says so). `outcome` is the integer 0 or 1 (`"1"` or `true` is a 400 naming the field). ' +
          '404 `not_found` for an unknown claim; 409 `already_resolved` for a resolved or expired one, and for nothing else (nothing changes). ' +
          'Of concurrent outcomes exactly one wins.',
        body: OutcomeBody,
        response: {
          200: Type.Object({
            claim_id: Type.String(),
            status: Type.String(),
            outcome: Type.Integer(),
            calibrated_p: Probability,
            outcome_source: Type.String({ description: 'self_reported' }),
            outcome_resolver: ResolverStatus,
          }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const claim = await calib.claim(request.body.claim_id);
      await auth.authorize(request, claim.agent_id, { mayCreate: false });
      return calib.recordOutcome(claim.claim_id, request.body.outcome, request.body.evidence ?? {}, 'self_reported', {
        seal: signableOrThrow(request),
      });
    },
  );
}
