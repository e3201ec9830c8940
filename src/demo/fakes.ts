import type { Config } from '../config.js';
import { ModelFakes } from './model-fakes.js';

/** The configuration with the demo's stand-ins filled in, and how to stop them. */
export interface DemoFakes {
  config: Config;
  close(): Promise<void>;
}

/**
 * SVC_DEMO=1 stand-ins for what a user has not configured, injected through the configuration as the simulator's base
 * URLs are: without SVC_MODELS (or a legacy LLM key) the loopback vendor fakes as a panel of four vendors answering as
 * model "demo", and without Plaid credentials the loopback Plaid sandbox. The features see configured services.
 */
export async function startDemoFakes(config: Config): Promise<DemoFakes> {
  const closers: (() => Promise<void>)[] = [];
  let { models, plaid } = config;
  if (models.length === 0) {
    const fakes = await new ModelFakes().start();
    closers.push(() => fakes.close());
    models = fakes.specs().map((spec) => ({ ...spec, fake: true }));
  }
  if (!plaid) {
    // Imported only here: the sandbox is typed by (and loads) the Plaid SDK.
    const { PlaidFake } = await import('./plaid-fake.js');
    const fake = await new PlaidFake().start();
    closers.push(() => fake.close());
    plaid = { clientId: fake.clientId, secret: fake.secret, baseUrl: fake.url };
  }
  return { config: { ...config, models, plaid }, close: async () => void (await Promise.all(closers.map((close) => close()))) };
}
