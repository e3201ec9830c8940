/**
 * Replays every strategy over historical candles so a fresh install has a track record:
 *   npm run arena:backfill -- 90      (days; default 90)
 * Uses the same configuration (database, upstreams) as the service; with SVC_DEMO=1 the demo world serves the candles.
 */
import { loadConfig } from '../config.js';
import { createDeps } from '../deps.js';
import { startDemo } from '../demo/start-up.js';
import { createArena, runArena } from './routes.js';

const days = Number(process.argv[2] ?? 90);
if (!Number.isInteger(days) || days < 1 || days > 730) {
  console.error('days must be an integer from 1 to 730');
  process.exit(2);
}
const loaded = loadConfig(process.env);
const demo = loaded.demo ? await startDemo(loaded) : undefined;
const deps = await createDeps(demo?.config ?? loaded);
const nowS = Math.floor(Date.now() / 1000);
await runArena(deps, createArena(deps), nowS - days * 86_400, nowS, { replay: true });
console.log(JSON.stringify({ backfilled_days: days }));
await deps.close();
await demo?.close();
