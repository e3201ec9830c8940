import Type, { type Static } from 'typebox';
import { ApiError } from '../core/errors.js';
import type { SourceDescriptor } from '../sources/define.js';
import type { ModelRef, Models } from '../models/index.js';
import type { DecisionRecipe, Step } from './goals.js';

/** The fallback planner: the `planner` model picks fetches from the catalog for a goal no rule matches. */
const MAX_STEPS = 3;

const StepSchema = Type.Object({ type: Type.String({ maxLength: 40 }), q: Type.String({ maxLength: 200 }) });
export const GoalPlanSchema = Type.Object({
  primary: Type.Array(StepSchema, { minItems: 1, maxItems: 6 }),
  supporting: Type.Array(StepSchema, { maxItems: 6 }),
  decision_recipe: Type.Object({
    outcomes: Type.Array(Type.String({ maxLength: 120 }), { minItems: 1, maxItems: 8 }),
    rules: Type.Array(Type.Object({ when: Type.String({ maxLength: 300 }), then: Type.String({ maxLength: 200 }) }), {
      minItems: 1,
      maxItems: 10,
    }),
    caveats: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 6 }),
  }),
});

export interface ModelPlan {
  /** Which model planned: vendor, configured id and model name ("demo" in the demo). */
  model?: ModelRef;
  primary: Step[];
  supporting: Step[];
  decision_recipe: DecisionRecipe;
}

export function systemPrompt(descriptors: SourceDescriptor[]): string {
  const catalog = descriptors.map((d) => `- ${d.type}: q = ${d.qShape || '(empty)'}, e.g. "${d.example}"; ${d.desc}`).join('\n');
  return [
    'You plan data fetches for an autonomous agent. Given its goal, choose at most 3 primary and 3 supporting fetches from this catalog, with q in exactly the shape shown:',
    catalog,
    'Then write a decision recipe: the outcomes to decide between and rules ("when" a condition on the fields of the fetched rows holds, "then" an outcome), checked in order. Do not invent types.',
  ].join('\n');
}

/**
 * The model's schema-valid answer → a plan of valid steps only: unknown types and malformed q are
 * dropped (`isValid`), so a model mistake costs a fetch, never a 500.
 */
export function validSteps(plan: Static<typeof GoalPlanSchema>, isValid: (step: Step) => boolean): ModelPlan | undefined {
  const valid = (steps: Step[]) =>
    steps
      .map(({ type, q }) => ({ type, q }))
      .filter(isValid)
      .slice(0, MAX_STEPS);
  const primary = valid(plan.primary);
  if (primary.length === 0) return undefined;
  return { primary, supporting: valid(plan.supporting), decision_recipe: plan.decision_recipe };
}

export async function planWithModel(
  goal: string,
  o: { models: Models; descriptors: SourceDescriptor[]; isValid: (step: Step) => boolean },
): Promise<ModelPlan> {
  const answer = await o.models.structured(o.models.pick('planner'), {
    instructions: systemPrompt(o.descriptors),
    prompt: goal,
    schema: GoalPlanSchema,
    name: 'goal_plan',
  });
  const failed = (reason: string, message: string) =>
    new ApiError('upstream_unavailable', `no built-in rule matches this goal and the language-model planner failed: ${message}`, {
      field: 'goal',
      reason,
      model: answer.model,
    });
  if (!answer.ok) throw failed(answer.reason, answer.message);
  const plan = validSteps(answer.value, o.isValid);
  if (!plan) throw failed('invalid_output', 'it proposed no valid fetch');
  return { model: answer.model, ...plan };
}
