import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { FreeFlag, FreeObject, StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { runBundle, type BundleResult } from '../data/bundle.js';
import { PRICES } from '../payments/pricing.js';
import { GOAL_CATEGORIES, type Plan, type Step } from './goals.js';
import { modelsFor, type ModelRef } from '../models/index.js';
import { subjectOf } from './subject.js';
import { OTHER, checkSteps, goalPlanner, type Planned } from './planner.js';
import { sendStoredAnswer } from '../payments/answers.js';
import { TierParam, requestedTier } from '../payments/tier.js';

const StepResult = FreeObject(
  '{type, q, ok, data{count, results[], source, as_of}} or {type, q, ok:false, error, message, data{error, message, attempts[]}}; unpaid supporting steps are {type, q} only',
);

interface AgentContextBody {
  goal: string;
  model?: ModelRef;
  goal_category: Planned['goal_category'];
  planner: Planned['planner'];
  subject: string | null;
  paid: boolean;
  context: { primary: BundleResult[]; supporting: (BundleResult | Step)[]; decision_recipe: Plan['decision_recipe'] };
}

const AgentContextQuery = Type.Object({
  goal: Type.String({
    minLength: 3,
    maxLength: 500,
    examples: ['should I buy ETH'],
    description: 'what the agent wants to decide, in plain words',
  }),
  entity: Type.Optional(Type.String({ maxLength: 200, description: 'entity id (svc-ent:…); overrides the goal’s words' })),
  free: FreeFlag,
  tier: TierParam,
});

const AgentContextAnswer = Type.Object({
  goal: Type.String(),
  goal_category: StringEnum([...GOAL_CATEGORIES, OTHER]),
  planner: StringEnum(['rules', 'language_model'] as const),
  model: Type.Optional(
    Type.Object(
      { id: Type.String(), vendor: Type.String(), model: Type.String() },
      { description: 'the model that planned (planner "language_model" only); model "demo" in the demo' },
    ),
  ),
  subject: Type.Union([Type.String(), Type.Null()], { description: 'entity id, address or coordinates the goal is about' }),
  paid: Type.Boolean(),
  context: Type.Object({
    primary: Type.Array(StepResult),
    supporting: Type.Array(StepResult),
    decision_recipe: Type.Object({
      outcomes: Type.Array(Type.String()),
      rules: Type.Array(Type.Object({ when: Type.String(), then: Type.String() })),
      caveats: Type.Array(Type.String()),
    }),
  }),
});

export const agentContextRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const planFor = goalPlanner(modelsFor(deps), deps.registry, deps.sources);

    app.get(
      '/api/v1/agent-context',
      {
        config: { signed: true },
        schema: {
          tags: ['agent-context'],
          summary: 'Goal → the data that answers it, plus a decision recipe',
          description:
            `Built-in rules map a free-text goal to data fetches. Goal categories, first match wins: ${GOAL_CATEGORIES.join(', ')}. ` +
            'The subject comes from `entity=` or from the goal’s words (`$AAPL`, `BTC`, `bitcoin`, a 0x address, "<lat>,<lon>"). ' +
            'Unpaid (no X-Payment, or free=1): each primary fetch with one row, and the supporting fetches listed as {type, q} for the agent to run itself. ' +
            `Paid (a verified X-Payment or PAYMENT-SIGNATURE of ${PRICES.agentContext} USDC atomic units, or a pass; tier=paid answers 402 until paid): primary and supporting fetches with all rows; ` +
            'nothing is charged when every fetch failed. A goal that misses a parameter its category needs is a 400 naming what to add. A goal no rule matches is ' +
            `planned by the \`planner\` model of SVC_MODELS (goal_category "${OTHER}", planner "language_model"; the goal is its question, the catalog its instructions; ` +
            'invalid steps it proposes are dropped), else 422 goal_unmatched; a failing model is a 503 upstream_unavailable naming the reason, a spent daily model budget 503 model_budget_exhausted.',
          querystring: AgentContextQuery,
          response: {
            200: AgentContextAnswer,
            ...errorResponses(400, 402, 404, 422, 503),
          },
        },
      },
      async (request, reply) => {
        const { goal, entity: entityId } = request.query;
        const entity = entityId !== undefined ? ctx.entities.entity(entityId, 'entity') : subjectOf(goal, ctx.entities.resolver);
        const plan = await planFor(goal, entity);
        const primary = checkSteps(deps.sources, plan.primary);
        const supporting = checkSteps(deps.sources, plan.supporting);
        const requirement = {
          amount: PRICES.agentContext,
          resource: `${deps.config.publicUrl}/api/v1/agent-context`,
          description: 'svc agent-context with every fetch in full',
        };
        const grant = await ctx.payments.authorizeTier(request, requirement, requestedTier(request.query));
        if (grant?.stored) return sendStoredAnswer(reply, grant.stored);

        const paid = Boolean(grant);
        const results = await runBundle(deps.sources, paid ? [...primary, ...supporting] : primary, !paid);
        const body: AgentContextBody = {
          goal,
          goal_category: plan.goal_category,
          planner: plan.planner,
          ...(plan.model ? { model: plan.model } : {}),
          subject: plan.subject,
          paid,
          context: {
            primary: results.slice(0, primary.length),
            supporting: paid ? results.slice(primary.length) : supporting,
            decision_recipe: plan.decision_recipe,
          },
        };
        if (grant) reply.headers(await ctx.payments.finish(request, grant, { charge: results.some((r) => r.ok) }));
        const answered = results.flatMap((r) => (r.ok ? [r.data] : []));
        reply.provenance = {
          asOf: answered.length ? Math.min(...answered.map((d) => Number(d.as_of))) : undefined,
          sources: answered.map((d) => String(d.source)),
        };
        return body;
      },
    );
  };
