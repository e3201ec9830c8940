/**
 * Replays every strategy over historical candles so a fresh install has a track record:
 *   npm run arena:backfill -- 90      (days; default 90)
 * Uses the same configuration (database, upstreams) as the service.
 */
import { loadConfig } from '../config.js';
import { createDeps } from '../deps.js';
import { createArena, runArena } from './routes.js';

const days = Number(process.argv[2] ?? 90);
if (!Number.isInteger(days) || days < 1 || days > 730) {
  console.error('days must be an integer from 1 to 730');
  process.exit(2);
}
const deps = await createDeps(loadConfig(process.env));
const nowS = Math.floor(Date.now() / 1000);
await runArena(deps, createArena(deps), nowS - days * 86_400, nowS, { replay: true });
console.log(JSON.stringify({ backfilled_days: days }));
await deps.close();
