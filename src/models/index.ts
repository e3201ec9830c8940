import type { Deps } from '../deps.js';
import { ModelMetrics } from './metrics.js';
import { Models } from './service.js';

export { Models, type ModelRequest, type StructuredRequest, type ModelResult, type ModelRef, type Usage } from './service.js';
export type { Role, ModelSpec } from '../config-models.js';

const shared = new WeakMap<Deps, Models>();

/**
 * The one model layer of an app, shared by its features (one budget, one set of counters). The demo's vendor fakes
 * arrive as configured models (demo/fakes.ts).
 */
export function modelsFor(deps: Deps): Models {
  let models = shared.get(deps);
  if (!models) {
    models = create(deps);
    shared.set(deps, models);
  }
  return models;
}

function create(deps: Deps): Models {
  const { config } = deps;
  return new Models({
    specs: config.models,
    deadlineMs: config.modelDeadlineMs,
    budgetUsdPerDay: config.modelBudgetUsdPerDay,
    cache: deps.cache,
    clock: deps.clock,
    metrics: new ModelMetrics(deps.metrics.registry),
  });
}
