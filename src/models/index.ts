import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { ModelFakes } from '../demo/model-fakes.js';
import { ModelMetrics } from './metrics.js';
import { Models } from './service.js';

export { Models, type ModelRequest, type StructuredRequest, type ModelResult, type ModelRef, type Usage } from './service.js';
export type { Role, ModelSpec } from '../config-models.js';

const shared = new WeakMap<Deps, Promise<Models>>();

/**
 * The one model layer of an app, shared by its features (one budget, one set of counters). In the
 * demo without SVC_MODELS it starts the loopback vendor fakes, a panel of four vendors answering as
 * model "demo", and stops them when the app closes.
 */
export function modelsFor(app: FastifyInstance, deps: Deps): Promise<Models> {
  let models = shared.get(deps);
  if (!models) {
    models = create(app, deps);
    shared.set(deps, models);
  }
  return models;
}

async function create(app: FastifyInstance, deps: Deps): Promise<Models> {
  const { config } = deps;
  let specs = config.models;
  if (config.demo && specs.length === 0) {
    const fakes = await new ModelFakes().start();
    app.addHook('onClose', () => fakes.close());
    specs = fakes.specs();
  }
  return new Models({
    specs,
    deadlineMs: config.modelDeadlineMs,
    budgetUsdPerDay: config.modelBudgetUsdPerDay,
    cache: deps.cache,
    clock: deps.clock,
    metrics: new ModelMetrics(deps.metrics.registry),
  });
}
