import Type from 'typebox';
import { Flag } from './config-env-stdio.js';

/** One SVC_DEMO_PERTURB entry (src/demo/perturb.ts reads them). */
const PERTURBATION = '[a-z0-9-]+:(x[0-9]+(\\.[0-9]+)?|stale|eur|500)';

/** The offline demo's settings (docs/demo.md). */
export const DEMO_ENV = {
  SVC_DEMO: Flag('1 = serve every upstream from the built-in demo world (offline demo, docs/demo.md)'),
  SVC_DEMO_PERTURB: Type.String({
    pattern: `^(${PERTURBATION}(,${PERTURBATION})*)?$`,
    expected: '<host>:<x100|x0.01|stale|eur|500>[,...], e.g. kraken:x100',
    default: '',
    description:
      'demo only: make one upstream of the demo world wrong (a price factor, ten minutes stale, EUR labelled USD, or HTTP 500) to watch corroboration leave it out (docs/corroboration.md)',
  }),
  SVC_DEMO_SEED: Type.Integer({
    minimum: 0,
    maximum: 2 ** 31 - 1,
    default: 1,
    description: 'seed of the demo world: the same seed gives the same prices, weather and events at every instant',
  }),
};
