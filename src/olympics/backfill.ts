/**
 * Replays historical hourly candles as olympics events (mode backfill) so a fresh install with panel
 * models has a table:   npm run olympics:backfill -- 14      (days; default 14)
 * Every day costs one model call per panel model and pair. Uses the service's configuration; with
 * SVC_DEMO=1 the demo simulator serves the candles and the demo panel answers, as in the service.
 */
import Fastify from 'fastify';
import { loadConfig } from '../config.js';
import { createDeps } from '../deps.js';
import { ApiError } from '../core/errors.js';
import { startDemo } from '../demo/start-up.js';
import { createOlympics, runBackfill } from './routes.js';

const days = Number(process.argv[2] ?? 14);
if (!Number.isInteger(days) || days < 1 || days > 365) {
  console.error('days must be an integer from 1 to 365');
  process.exit(2);
}
const loaded = loadConfig(process.env);
const demo = loaded.demo ? await startDemo(loaded) : undefined;
const deps = await createDeps(demo?.config ?? loaded);
const host = Fastify();
try {
  const nowS = Math.floor(Date.now() / 1000);
  const played = await runBackfill(deps, await createOlympics(host, deps), nowS - days * 86_400, nowS);
  console.log(JSON.stringify({ backfilled_days: days, events: played }));
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  console.error(JSON.stringify({ error: error.code, message: error.message }));
  process.exitCode = 2;
} finally {
  await host.close();
  await deps.close();
  await demo?.close();
}
