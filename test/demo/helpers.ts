import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { hostEnvName } from '../../src/upstream/hosts.js';
import type { Perturbation } from '../../src/demo/perturb.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';

export const DEMO_SEED = 7;

/**
 * The app in demo mode (SVC_DEMO=1) on a manual clock, every upstream served by the demo world as `npm run demo` serves
 * it: the same base URLs and the same demo keys for keyed data hosts (none for the LLM planner), so only the clock differs.
 */
export async function startDemoApp(
  nowMs: number,
  { perturb, ...options }: Pick<TestAppOptions, 'postgres' | 'redis'> & { perturb?: Map<string, Perturbation> } = {},
): Promise<TestApp> {
  const clock = new ManualClock(nowMs);
  const sim = await new Simulator(loadFixtures(), { seed: DEMO_SEED, clock, perturb }).start();
  const upstreams = Object.entries(sim.pointAt(loadConfig({}).upstreams));
  const env = Object.fromEntries(
    upstreams.flatMap(([name, s]) => [
      [hostEnvName(name, 'URL'), s.baseUrl],
      [hostEnvName(name, 'KEY'), s.key ?? ''],
    ]),
  );
  const t = await startTestApp({
    ...options,
    sim,
    clock,
    env: { SVC_DEMO: '1', SVC_DEMO_SEED: String(DEMO_SEED), ...env },
    deadlineCapMs: 4000,
  });
  return {
    ...t,
    close: async () => {
      await t.close();
      await sim.close();
    },
  };
}

/** A client address per call, so no rate limit or per-client cap meets a suite that asks many questions. */
export const clientOf = (i: number): string => `10.7.${Math.floor(i / 200)}.${(i % 200) + 1}`;
