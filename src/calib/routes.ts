import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { errorResponses, SECURITY } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { signableOrThrow } from '../plugins/signing.js';
import {
  AgentCard,
  AgentId,
  AgentKey,
  ClaimBody,
  CurveResponse,
  Kind,
  OutcomeBody,
  Probability,
  ProductFields,
  PublicJwk,
  ResolverStatus,
} from './schemas.js';
import { AUTH_DESCRIPTION, AgentAuth, hashAgentKey, keepRawBodyOfSignedRequests, newAgentKey } from './agent-auth.js';
import { RESERVED_NAMESPACES } from './namespaces.js';
import { checkResolver } from './resolvers/registry.js';
import { StringEnum } from '../core/schemas.js';
import { PRICES, usd } from '../payments/pricing.js';
import { sendStoredAnswer } from '../payments/answers.js';
import { answerBareProbes } from '../payments/probes.js';
import { CalibPro, PRODUCT_TAG, PRO_DAYS } from './pro/service.js';
import { DriftWatch } from './pro/drift.js';
import { Webhooks } from './pro/webhooks.js';
import { calibProRoutes } from './pro/routes.js';

const RESOLVE_EVERY_MS = 60_000;
const PURGE_SIGNATURES_EVERY_MS = 3600_000;
const PUBLIC = 'Public: no credentials needed.';
const RESERVED = `Agent ids in the namespaces ${RESERVED_NAMESPACES.map((n) => `${n}:`).join(', ')} are written by svc only (403 forbidden).`;

export const calibRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const calib = deps.calibration;
    const agents = deps.repos.agents;
    const auth = new AgentAuth(agents, deps.clock);
    const proRepo = deps.repos.calibPro;
    const pro = new CalibPro(proRepo, calib, deps.clock);
    const webhooks = new Webhooks(proRepo, deps.signingKey, deps.clock, deps.config);
    const drift = new DriftWatch(proRepo, webhooks, deps.clock);
    await app.register(calibProRoutes({ deps, pro, repo: proRepo, auth, webhooks, drift }, ctx.jobs));
    const proClaim = {
      amount: PRICES.calibProClaim,
      resource: `${deps.config.publicUrl}/api/v1/calib/record_claim`,
      description: 'svc calib-pro claim',
    };
    ctx.jobs.push({ name: 'calib-resolve', everyMs: RESOLVE_EVERY_MS, run: async () => void (await calib.resolveDue()) });
    ctx.jobs.push({ name: 'agent-signatures-purge', everyMs: PURGE_SIGNATURES_EVERY_MS, run: async () => void (await auth.purge()) });
    const signed = { signed: true };
    const tags = ['calibration'];
    const proTags = ['calibration', PRODUCT_TAG];
    const write = { preParsing: keepRawBodyOfSignedRequests };

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
          description:
            'Returns the claim id, the calibrated probability for its bin and whether that bin has fewer than 30 resolved claims. A claim still unresolved ' +
            'at expected_resolution_at (now + ttl_hours) becomes `expired` and never enters the curves; claims with a resolver svc runs are resolved by svc then (see outcome_resolver; `outcome_resolver.run_by_svc` in the answer says which). ' +
            'The first write for a new agent_id creates the agent and returns its `agent_key` (shown once, stored only as a SHA-256 hash). ' +
            `${AUTH_DESCRIPTION} ${RESERVED} Nothing is stored when the answer cannot be built. ` +
            `**calib-pro**: with \`product=calib-pro\` the claim costs ${usd(PRICES.calibProClaim)} USDC through x402 (402 with the challenge until paid) or is covered by a day or week pass ` +
            `(\`X-Svc-Pass: svc-pass_…\`, since Authorization carries the agent key); each such claim keeps the agent on calib-pro for ${PRO_DAYS} days. ` +
            'It is for an existing agent: a new agent_id records its first claim free (the answer that carries its agent_key); ' +
            'a paid first claim is a 400 and its payment is released. ' +
            '`product` and `pro_until` in the answer say where the agent stands; without the parameter nothing is charged and the free ledger works as before.',
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

    app.post(
      '/api/v1/calib/rotate_key',
      {
        ...write,
        schema: {
          security: SECURITY.agent,
          tags,
          summary: "Replace an agent's key",
          description: `Returns a new agent_key, shown once; the old key stops working at once. Of two concurrent rotations one wins (the other: 409 conflict). ${AUTH_DESCRIPTION}`,
          body: Type.Object({ agent_id: AgentId }),
          response: {
            200: Type.Object({ agent_id: Type.String(), agent_key: AgentKey, rotated_at: Type.Integer({ description: 'Unix ms' }) }),
            ...errorResponses(400, 401, 403, 409),
          },
        },
      },
      async (request) => {
        const { credential } = await auth.authorize(request, request.body.agent_id, { mayCreate: false });
        const agentKey = newAgentKey();
        const rotatedAt = deps.clock.now();
        if (!(await agents.rotateKey(credential.agent_id, credential.key_hash, hashAgentKey(agentKey), rotatedAt))) {
          throw new ApiError('conflict', 'the key was rotated by a concurrent request', { agent_id: credential.agent_id });
        }
        return { agent_id: credential.agent_id, agent_key: agentKey, rotated_at: rotatedAt };
      },
    );

    app.post(
      '/api/v1/calib/public_key',
      {
        ...write,
        schema: {
          security: SECURITY.agent,
          tags,
          summary: 'Register (or remove, with null) the Ed25519 public key whose signatures may replace the agent_key',
          description: `The agent_key keeps working. ${AUTH_DESCRIPTION}`,
          body: Type.Object({ agent_id: AgentId, public_jwk: Type.Union([PublicJwk, Type.Null()]) }),
          response: {
            200: Type.Object({ agent_id: Type.String(), public_jwk: Type.Union([PublicJwk, Type.Null()]) }),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => {
        const { agent_id, public_jwk } = request.body;
        const jwk = public_jwk && { kty: public_jwk.kty, crv: public_jwk.crv, x: public_jwk.x };
        const { credential } = await auth.authorize(request, agent_id, { mayCreate: false });
        await agents.setPublicJwk(credential.agent_id, jwk ? JSON.stringify(jwk) : null);
        return { agent_id, public_jwk: jwk };
      },
    );
  };
