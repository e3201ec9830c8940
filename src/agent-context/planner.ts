import { ApiError } from '../core/errors.js';
import type { Entity } from '../entities/dataset.js';
import type { ModelRef, Models } from '../models/index.js';
import type { SourceRunner } from '../sources/runner.js';
import type { Registry } from '../sources/registry.js';
import { GOAL_CATEGORIES, goalFacts, planGoal, type Plan, type Step } from './goals.js';
import { planWithModel } from './llm-planner.js';

/** What the language-model planner's answers are filed under. */
export const OTHER = 'other';

export type Planned = Omit<Plan, 'goal_category'> & {
  goal_category: Plan['goal_category'] | typeof OTHER;
  planner: 'rules' | 'language_model';
  model?: ModelRef;
};

const isValidStep = (runner: SourceRunner) => (step: Step) => {
  try {
    runner.prepare(step.type, step.q);
    return true;
  } catch {
    return false;
  }
};

/** Plans a goal: the built-in rules first; the language model only for goals none of them matches. */
export function goalPlanner(models: Models, registry: Registry, runner: SourceRunner) {
  return async function planFor(goal: string, entity: Entity | undefined): Promise<Planned> {
    const ruled = planGoal(goalFacts(goal, entity));
    if (ruled) return { ...ruled, planner: 'rules' };
    if (!models.has('planner')) {
      throw new ApiError(
        'goal_unmatched',
        'no built-in rule matches this goal; name what you want to decide (buy, sell, scan, yield, weather, news, portfolio risk, a stock)',
        {
          field: 'goal',
          goal_categories: [...GOAL_CATEGORIES],
          language_model: 'not configured (SVC_MODELS has no planner)',
        },
      );
    }
    const modelPlan = await planWithModel(goal, { models, descriptors: registry.all(), isValid: isValidStep(runner) });
    return { goal_category: OTHER, planner: 'language_model', subject: entity?.id ?? null, ...modelPlan };
  };
}

/** Every step's q is checked before anything runs or is paid for; a bad one is the goal's fault. */
export function checkSteps(runner: SourceRunner, steps: Step[]): Step[] {
  return steps.map((step) => {
    try {
      return { type: step.type, q: runner.prepare(step.type, step.q).key };
    } catch (e) {
      if (e instanceof ApiError)
        throw new ApiError('validation_failed', `the goal leads to ${step.type} "${step.q}", which is not valid: ${e.message}`, {
          field: 'goal',
          type: step.type,
        });
      throw e;
    }
  });
}
