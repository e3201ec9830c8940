import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { ConfigError, type Config } from './config.js';
import { corroborationProblems } from './config-env-corroboration.js';
import { systemClock, type Clock } from './core/clock.js';
import { createStore, type Store } from './store/db.js';
import { createCache, type CacheBackend } from './cache/index.js';
import { Availability } from './cache/resilient.js';
import { createBus, type Bus } from './bus/index.js';
import { publishAnswer } from './stream/hub.js';
import { unknownWatchedTypes } from './stream/watch.js';
import { loadPreviousKeys, loadSigningKey, type SigningKey, type VerifyingKey } from './core/signing-keys.js';
import { ClusterMembership } from './lifecycle/cluster.js';
import { buildInfo } from './core/build-info.js';
import { UpstreamClient } from './upstream/client.js';
import { SourceRunner } from './sources/runner.js';
import { CalibrationService } from './calib/service.js';
import { registry as defaultRegistry, type Registry } from './sources/registry.js';
import { createRepos, type Repos } from './store/repos/index.js';
import { Metrics } from './plugins/metrics.js';
import { API_VERSION } from './core/version.js';
import { UpstreamHealth } from './upstream/health.js';
import { StatusService, outcomeOf } from './status/service.js';
import { startTracing, type Tracer } from './core/tracing.js';
import { BackgroundErrors } from './core/background.js';
import { TransparencyLog } from './tlog/log.js';
import { loadLogKey } from './tlog/log-key.js';

/** Everything with I/O or state, built once at start-up and handed to buildApp. */
export interface Deps {
  config: Config;
  clock: Clock;
  store: Store;
  /** The repositories over `store`, injected into services (routes never construct them). */
  repos: Repos;
  redis?: Redis;
  /** Whether Redis answers (with REDIS_URL): the outage log line, the metric and /readyz follow it. */
  redisAvailability?: Availability;
  cache: CacheBackend;
  bus: Bus;
  signingKey: SigningKey;
  /** Earlier signing keys (SVC_SIGNING_KEYS_PREVIOUS): receipts they signed keep verifying. */
  previousKeys: VerifyingKey[];
  /** This process's heartbeat among the instances sharing the database. */
  cluster: ClusterMembership;
  /** The transparency log receipts are appended to (docs/transparency-log.md); buildApp starts its checkpoints. */
  tlog: TransparencyLog;
  upstream: UpstreamClient;
  registry: Registry;
  sources: SourceRunner;
  /** The calibration ledger: every feature that records or resolves claims shares this one service. */
  calibration: CalibrationService;
  metrics: Metrics;
  /** Failures of work nobody awaits: counted, and logged once per outage (buildApp gives it the logger). */
  background: BackgroundErrors;
  /** Upstream health per host and per type: the catalog's availability, /api/v1/status, the doctor. */
  status: StatusService;
  /** OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set, else a no-op. */
  tracer: Tracer;
  close(): Promise<void>;
}

export interface DepsOptions {
  clock?: Clock;
  /** Postgres schema (tests isolate themselves); SQLite ignores it. */
  pgSchema?: string;
  /** Caps every data type's deadline (tests). */
  deadlineCapMs?: number;
  /** false: corroborated types wait for every source (reproducible answers: tests, recorded examples). Default true. */
  signAtQuorum?: boolean;
  registry?: Registry;
  /** false: another process of this deployment applied the migrations (a replacement worker). */
  migrate?: boolean;
}

/**
 * ioredis loads only when Redis is configured (RSS: a single instance never needs it). Every command
 * has a deadline and none waits in an offline queue: while Redis is away a command fails at once and
 * the policy of its use applies (cache/resilient.ts); the connection keeps reconnecting.
 */
async function connectRedis(config: Config): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl!, {
    keyPrefix: config.redisPrefix,
    enableAutoPipelining: true,
    commandTimeout: config.redisTimeoutMs,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
  });
  // Connection errors surface as failed commands; without a listener ioredis would also print each one.
  redis.on('error', () => undefined);
  await redis.connect().catch((error: Error) => {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect to Redis (${error.message})`);
  });
  return redis;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const registry = options.registry ?? defaultRegistry;
  checkAgainstRegistry(config, registry);
  const clock = options.clock ?? systemClock;
  const store = await createStore({
    databaseUrl: config.databaseUrl,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    sqlitePath: join(config.dataDir, 'svc.db'),
    schema: options.pgSchema,
    migrate: options.migrate,
  });
  const redis = config.redisUrl ? await connectRedis(config) : undefined;
  const metrics = new Metrics();
  const background = new BackgroundErrors(metrics.observeBackgroundError);
  const { redisAvailability, cache } = sharedCache(redis, clock, metrics);
  const bus = createBus(redis);
  const health = new UpstreamHealth(clock);
  const tracer = await startTracing(config.tracing, API_VERSION);
  const upstream = new UpstreamClient(config, {
    observe: (call) => {
      metrics.observeUpstream(call);
      health.recordCall(call);
    },
    tracer,
  });
  const repos = createRepos(store.db, store.engine);
  const sources = createSources({ registry, upstream, cache, repos, clock, config, background, health, bus }, options);
  const signingKey = loadSigningKey(config.signingKey, config.dataDir);
  const cluster = new ClusterMembership(repos.cluster, clock, { kid: signingKey.kid, redis: Boolean(redis), version: buildInfo.version });
  const status = new StatusService({ registry, config, upstream, health, clock, redis, cluster });
  const tlog = createTransparencyLog(config, repos, signingKey, clock, background);
  return {
    config,
    clock,
    store,
    repos,
    redis,
    redisAvailability,
    cache,
    bus,
    signingKey,
    previousKeys: loadPreviousKeys(config.signingKeysPrevious, signingKey),
    cluster,
    tlog,
    upstream,
    registry,
    sources,
    calibration: new CalibrationService(repos.calibration, clock, sources),
    metrics,
    background,
    status,
    tracer,
    close: async () => {
      await tlog.stop();
      await cluster.stop();
      await status.stop();
      await bus.close();
      await upstream.close();
      redis?.disconnect();
      await store.close();
      await tracer.shutdown();
    },
  };
}

/** What the configuration cannot check without the data types (it never loads them): watched types, corroboration rules. */
function checkAgainstRegistry(config: Config, registry: Registry): void {
  const watched = unknownWatchedTypes(registry, config.streamWatch);
  const problems = [...(watched ? [watched] : []), ...corroborationProblems(config.corroboration, registry.all())];
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The cache: on Redis when configured, falling back to the process while Redis is away (counted and logged). */
function sharedCache(redis: Redis | undefined, clock: Clock, metrics: Metrics) {
  const redisAvailability = redis ? new Availability() : undefined;
  redisAvailability?.onChange(metrics.observeRedisAvailable);
  if (redisAvailability) metrics.observeRedisAvailable(true);
  const cache = createCache(
    redis,
    () => clock.now(),
    redisAvailability && { availability: redisAvailability, onFallback: metrics.observeRedisFallback },
  );
  return { redisAvailability, cache };
}

interface SourceParts {
  registry: Registry;
  upstream: UpstreamClient;
  cache: CacheBackend;
  repos: Repos;
  clock: Clock;
  config: Config;
  background: BackgroundErrors;
  health: UpstreamHealth;
  bus: Bus;
}

/** The data types' runner: every fresh answer it fetches counts for the type's health and goes on the data stream. */
function createSources(parts: SourceParts, options: DepsOptions): SourceRunner {
  const { registry, upstream, cache, repos, clock, config, background, health, bus } = parts;
  return new SourceRunner({
    registry,
    upstream,
    cache,
    history: repos.sourceHistory,
    clock,
    config,
    deadlineCapMs: options.deadlineCapMs,
    signAtQuorum: options.signAtQuorum,
    background,
    onFresh: (descriptor, result) => {
      health.recordType(descriptor.type, outcomeOf(descriptor, result));
      // The one place fresh answers come from (previews, bundles, agent-context, MCP, the poller): each goes on the data stream once.
      if (result.ok) void publishAnswer(bus, result).catch(() => undefined);
    },
  });
}

function createTransparencyLog(config: Config, repos: Repos, signingKey: SigningKey, clock: Clock, background: BackgroundErrors) {
  return new TransparencyLog({
    repo: repos.tlog,
    signer: loadLogKey(config.tlog.key, signingKey.privateKey, config.tlog.origin),
    clock,
    background,
    intervalMs: config.tlog.checkpointIntervalMs,
    witnesses: config.tlog.witnesses,
    witnessQuorum: config.tlog.witnessQuorum,
  });
}
