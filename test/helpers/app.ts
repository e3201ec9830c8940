import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { buildApp, type AppOptions, type LogStream } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { Simulator } from '../../src/demo/simulator.js';
import { startDemoFakes } from '../../src/demo/fakes.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { uniqueName } from './backends.js';
import { freePort, isAddressInUse } from './ports.js';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  sim: Simulator;
  clock: ManualClock;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Use DATABASE_URL / REDIS_URL from the environment (backend suites). */
  postgres?: boolean;
  redis?: boolean;
  /** Share a simulator (and Postgres schema / Redis prefix) with another app: several instances. */
  sim?: Simulator;
  pgSchema?: string;
  redisPrefix?: string;
  deadlineCapMs?: number;
  /** Corroborated types sign at their quorum as in production; by default tests wait for every source (reproducible). */
  signAtQuorum?: boolean;
  clock?: ManualClock;
  /** Log at info level into this stream (tests that read log lines). */
  logStream?: LogStream;
  /** The routes' response serializer factory, instead of the app's own (lazy) one. */
  buildSerializer?: AppOptions['buildSerializer'];
  /** The routes' request validator factory, instead of the app's own (lazy) one. */
  buildValidator?: AppOptions['buildValidator'];
}

/**
 * The real buildApp with a temp SQLite file (or an isolated Postgres schema), every upstream
 * pointed at the loopback simulator, and a manual clock.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const sim = options.sim ?? (await new Simulator(loadFixtures()).start());
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  // Rate limits high enough that only the protection suite meets them.
  const env: Record<string, string> = {
    SVC_DATA_DIR: dataDir,
    SVC_PUBLIC_URL: 'http://svc.test',
    SVC_SCHEDULER: '0',
    SVC_RATE_ANON_PER_MIN: '1000000',
    SVC_REDIS_PREFIX: `${options.redisPrefix ?? uniqueName('t')}:`,
    // Two shared cores: a generous Redis deadline, so only the outage suites meet the fallback.
    SVC_REDIS_TIMEOUT_MS: '2000',
    // Suites tick the scheduler for their own jobs; the stream's poller of every type would ride along.
    SVC_STREAM_WATCH: 'off',
    ...sim.env(),
    ...options.env,
  };
  if (options.postgres && process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  if (options.redis && process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  const clock = options.clock ?? new ManualClock();
  const loaded = loadConfig(env);
  // SVC_DEMO=1 as the entry points run it: the model and Plaid fakes stand in for what is not configured.
  const fakes = loaded.demo ? await startDemoFakes(loaded) : undefined;
  const deps = await createDeps(fakes?.config ?? loaded, {
    clock,
    pgSchema: options.pgSchema ?? uniqueName('t'),
    deadlineCapMs: options.deadlineCapMs ?? 1500,
    signAtQuorum: options.signAtQuorum ?? false,
  });
  const app = await buildApp(deps, {
    ...(options.logStream ? { logger: { level: 'info', stream: options.logStream } } : {}),
    buildSerializer: options.buildSerializer,
    buildValidator: options.buildValidator,
  });
  await app.ready();
  return {
    app,
    deps,
    sim,
    clock,
    close: async () => {
      await app.close();
      await deps.close();
      await fakes?.close();
      if (!options.sim) await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A starter of test apps that closes every app a case started once the case ends, whatever its outcome. */
export function appsClosedAfterEach(): (options?: TestAppOptions) => Promise<TestApp> {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });
  return async (options) => {
    const t = await startTestApp(options);
    apps.push(t);
    return t;
  };
}

/**
 * The test app on a loopback port, its public URL naming that port (pages put it in their CSP and links). The URL is
 * configuration, so the port is chosen before the app is built; in the rare case another process takes it first, a
 * new port is tried.
 */
export async function startListeningApp(options: TestAppOptions = {}): Promise<{ t: TestApp; base: string }> {
  for (let attempt = 1; ; attempt++) {
    const base = `http://127.0.0.1:${await freePort()}`;
    const t = await startTestApp({ ...options, env: { ...options.env, SVC_PUBLIC_URL: base } });
    try {
      await t.app.listen({ port: Number(new URL(base).port), host: '127.0.0.1' });
      return { t, base };
    } catch (e) {
      await t.close();
      if (attempt === 3 || !isAddressInUse(e)) throw e;
    }
  }
}
