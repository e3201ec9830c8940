import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { createCache } from '../cache/index.js';
import { systemClock, type Clock } from '../core/clock.js';
import { SourceRunner } from '../sources/runner.js';
import { UpstreamClient } from '../upstream/client.js';
import { SNAPSHOT_BASKET, SNAPSHOT_EVERY_MS, SnapshotService } from '../snapshot/service.js';
import { createArena, runArena } from '../arena/routes.js';
import { STRATEGIES, ASSETS } from '../arena/paper-trader.js';
import { createOlympics, runBackfill } from '../olympics/routes.js';
import { Simulator } from './simulator.js';
import { loadFixtures } from '../upstream/fixtures.js';
import { parsePerturbations } from './perturb.js';
import { startDemoFakes } from './fakes.js';

/**
 * SVC_DEMO=1 start-up: the simulator serving the demo world, the configuration pointed at it, and the world's past
 * written into the store before the first request, so a new user finds what a service running for a while would have:
 * the last hour of every catalog example and of the snapshot basket (the time machine, `since` and `snapshot?ago`
 * answer at once), and on a first start the arena's trades and the olympics' events replayed over recent days.
 */
export const HISTORY_MINUTES = 60;
/** Days replayed on a first start: enough for a track record, short enough to start in seconds. */
const ARENA_DAYS = 30;
const OLYMPICS_DAYS = 3;
/** Past instants recorded at the same time (each one a burst of local requests). */
const PARALLEL_INSTANTS = 4;

export interface Demo {
  sim: Simulator;
  /** The configuration with every upstream pointed at the simulator, and the model and Plaid fakes (demo/fakes.ts). */
  config: Config;
  /** Writes the world's past into the store (before the app listens) and says so in the log. */
  prepare(app: FastifyInstance, deps: Deps): Promise<void>;
  close(): Promise<void>;
}

export async function startDemo(config: Config, clock: Clock = systemClock): Promise<Demo> {
  const perturb = parsePerturbations(config.demoPerturb);
  const sim = await new Simulator(loadFixtures(), { seed: config.demoSeed, clock, perturb }).start();
  const fakes = await startDemoFakes({ ...config, upstreams: sim.pointAt(config.upstreams) });
  return {
    sim,
    config: fakes.config,
    prepare: async (app, deps) => {
      const started = Date.now();
      app.log.info("SVC_DEMO=1: writing the demo world's last hour (and on a first start the arena and olympics) before listening");
      const minutes = await recordPast(deps, sim);
      const backfilled = await backfillFirstStart(app, deps);
      app.log.warn(
        { simulator: sim.url, seed: config.demoSeed, history_minutes: minutes, ...backfilled, prepared_ms: Date.now() - started },
        'SVC_DEMO=1: every upstream is served by the demo world (docs/demo.md); answers and receipts say source_mode "demo"',
      );
    },
    close: async () => {
      await fakes.close();
      await sim.close();
    },
  };
}

/** A catalog example is recorded every five minutes, or every ten when its TTL is that long (the stream polls it live). */
const refetchEveryS = (ttlSeconds: number) => Math.max(300, Math.min(ttlSeconds, 600));

/**
 * Runs the snapshot basket every minute (as the snapshot job does) and each catalog example every few minutes (refetchEveryS)
 * over the last `minutes` (all of them at the first instant), each as of its instant: a runner whose clock and
 * upstreams (`/@<ms>` base URLs) are at that instant, writing to the service's history and snapshot stores.
 * Returns how many instants were recorded (none already in the store).
 */
export async function recordPast(deps: Deps, sim: Simulator, minutes = HISTORY_MINUTES): Promise<number> {
  const now = Math.floor(deps.clock.now() / SNAPSHOT_EVERY_MS) * SNAPSHOT_EVERY_MS;
  const all = Array.from({ length: minutes - 1 }, (_, i) => now - (minutes - 1 - i) * SNAPSHOT_EVERY_MS);
  // A restart within the hour finds the instants it recorded before (or the snapshot job did) and skips them.
  const recorded = await Promise.all(all.map(async (at) => (await deps.repos.snapshots.atOrBefore(at))?.taken_at === at));
  const instants = all.filter((_, i) => !recorded[i]);
  for (let i = 0; i < instants.length; i += PARALLEL_INSTANTS) {
    await Promise.all(instants.slice(i, i + PARALLEL_INSTANTS).map((at) => recordInstant(deps, sim, at, at === all[0])));
  }
  return instants.length;
}

async function recordInstant(deps: Deps, sim: Simulator, atMs: number, first: boolean): Promise<void> {
  const clock: Clock = { now: () => atMs };
  const config = { ...deps.config, upstreams: sim.pointAt(deps.config.upstreams, atMs) };
  const upstream = new UpstreamClient(config);
  const cache = createCache(undefined, () => atMs);
  const runner = new SourceRunner({ registry: deps.registry, upstream, cache, history: deps.repos.sourceHistory, clock, config });
  try {
    await new SnapshotService(runner, deps.repos.snapshots, clock).record();
    const inBasket = new Set(SNAPSHOT_BASKET.map((b) => `${b.type}\n${b.q}`));
    const due = deps.registry
      .all()
      .filter((d) => !inBasket.has(`${d.type}\n${d.example}`) && (first || (atMs / 1000) % refetchEveryS(d.ttlSeconds) < 60));
    await Promise.all(due.map((d) => runner.run(d.type, d.example)));
  } finally {
    await upstream.close();
  }
}

/** On a first start (no trade, no event yet): the arena over the last ARENA_DAYS, the olympics over OLYMPICS_DAYS. */
export async function backfillFirstStart(app: FastifyInstance, deps: Deps): Promise<{ arena: boolean; olympics: number }> {
  const nowS = Math.floor(deps.clock.now() / 1000);
  const arenaEmpty = (await deps.repos.arena.trades(STRATEGIES[0], ASSETS[0])).length === 0;
  if (arenaEmpty) await runArena(deps, createArena(deps), nowS - ARENA_DAYS * 86_400, nowS, { replay: true });
  const olympicsEmpty = (await deps.repos.olympics.events({ limit: 1 })).length === 0;
  const played = olympicsEmpty ? await runBackfill(deps, await createOlympics(app, deps), nowS - OLYMPICS_DAYS * 86_400, nowS) : 0;
  return { arena: arenaEmpty, olympics: played };
}
