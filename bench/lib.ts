import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import autocannon, { type Options, type Result } from 'autocannon';

const require = createRequire(import.meta.url);
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { Simulator, loadFixtures } from '../src/demo/simulator.js';

/** The real app on loopback, every upstream served by the simulator, scheduler off, limits out of the way. */
export async function startServer(env: Record<string, string> = {}) {
  const sim = await new Simulator(loadFixtures()).start();
  const config = loadConfig({
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
    SVC_SCHEDULER: '0',
    SVC_RATE_ANON_PER_MIN: '100000000',
    LOG_LEVEL: 'silent',
    ...sim.env(),
    ...env,
  });
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, sim, deps, app, close: async () => { await app.close(); await deps.close(); await sim.close(); } };
}

export const run = (options: Options): Promise<Result> => autocannon(options);

/** autocannon in its own process, so the load generator does not share the server's event loop. */
export function runExternal(url: string, connections: number, durationS: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve('autocannon/autocannon.js'), '--json', '-c', String(connections), '-d', String(durationS), url], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(JSON.parse(out) as Result));
  });
}

export const summary = (r: Result) => ({
  requests_per_s: r.requests.average,
  latency_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  errors: r.errors,
  non_2xx: r.non2xx,
});
