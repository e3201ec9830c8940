import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';
import type { AppContext } from './app-context.js';
import { CursorCodec } from './core/cursor.js';
import { derivedSecret } from './core/secrets.js';
import { createPaymentGate } from './payments/index.js';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.js';
import { registerRequestLog } from './plugins/request-log.js';
import { deferredChildLogger } from './plugins/deferred-logger.js';
import { registerCors } from './plugins/cors.js';
import { registerInputGuard } from './plugins/input-guard.js';
import { loggerOptions, registerServerLimits, serverOptions } from './plugins/server-options.js';
import { registerSigning } from './plugins/signing.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerTracing } from './plugins/tracing.js';
import { lazySerializers } from './plugins/lazy-serializers.js';
import { ajvValidators, asFastifyFactory, lazily, type ValidatorFactory } from './plugins/lazy-validators.js';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { catalogRoutes } from './catalog/routes.js';
import { dataRoutes } from './data/routes.js';
import { agentContextRoutes } from './agent-context/routes.js';
import { receiptRoutes } from './receipts/routes.js';
import { tlogRoutes } from './tlog/routes.js';
import { healthRoutes } from './health/routes.js';
import { statusRoutes } from './status/routes.js';
import { discoveryRoutes } from './discovery/routes.js';
import { mcpRoutes } from './mcp/routes.js';
import { snapshotRoutes } from './snapshot/routes.js';
import { streamRoutes } from './stream/routes.js';
import { backtestRoutes } from './backtest/routes.js';
import { gainersRoutes } from './gainers/routes.js';
import { camsRoutes } from './cams/routes.js';
import { viralRoutes } from './viral/routes.js';
import { paymentRoutes } from './payments/routes.js';
import { calibRoutes } from './calib/routes.js';
import { trainingStationRoutes } from './training-station/routes.js';
import { arenaRoutes } from './arena/routes.js';
import { agentSessionRoutes } from './agent-session/routes.js';
import { portfolioRoutes } from './portfolio/routes.js';
import { shieldRoutes } from './shield/routes.js';
import { chartRoutes } from './chart/routes.js';
import { olympicsRoutes } from './olympics/routes.js';
import { constitutionalRoutes } from './constitutional/routes.js';
import { EntityGraph } from './entities/graph.js';
import { entityRoutes } from './entities/routes.js';
import { Protection } from './protection/service.js';
import { protectionRoutes, registerProtection } from './protection/routes.js';
import { limitsRoutes } from './limits/routes.js';
import { Scheduler } from './scheduler/scheduler.js';
import { calibProAgentOf, presentedAgentKey } from './calib/pro/rate-tier.js';

/** Where log lines go when not stdout: anything with write(line). */
export interface LogStream {
  write(line: string): void;
}

export interface AppOptions {
  /** false = no logging (tests); otherwise the pino level and, for tests that read logs, a stream. */
  logger?: false | { level: string; stream?: LogStream };
  /** Builds the routes' response serializers: fast-json-stringify on each route's first answer unless a test says otherwise. */
  buildSerializer?: SerializerFactory;
  /** Builds the routes' request validators: Ajv on each route part's first request unless a test says otherwise. */
  buildValidator?: ValidatorFactory;
}

/** Feature modules, registered in this order. Adding a feature = one line here. */
const FEATURES = [
  catalogRoutes,
  entityRoutes,
  dataRoutes,
  agentContextRoutes,
  streamRoutes,
  snapshotRoutes,
  backtestRoutes,
  gainersRoutes,
  camsRoutes,
  viralRoutes,
  paymentRoutes,
  protectionRoutes,
  limitsRoutes,
  calibRoutes,
  trainingStationRoutes,
  arenaRoutes,
  agentSessionRoutes,
  portfolioRoutes,
  shieldRoutes,
  chartRoutes,
  olympicsRoutes,
  constitutionalRoutes,
  receiptRoutes,
  tlogRoutes,
  healthRoutes,
  statusRoutes,
  discoveryRoutes,
  mcpRoutes,
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs; tests drive it with `tick()` and a manual clock. */
    scheduler: Scheduler;
    /** Set when shutdown begins: /readyz answers 503 from then on, while the instance still serves. */
    stopping: boolean;
  }
}

/** Builds the HTTP app from ready dependencies; no I/O happens here beyond what deps already did. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(deps.config),
    // A silent logger is none at all (Fastify would still make a child logger per request); a real one makes
    // request.log on first use.
    ...(options.logger && options.logger.level !== 'silent'
      ? { logger: loggerOptions(options.logger.level, options.logger.stream), childLoggerFactory: deferredChildLogger }
      : { logger: false }),
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } },
    bodyLimit: 1_048_576,
    schemaController: {
      compilersFactory: {
        buildSerializer: options.buildSerializer ?? lazySerializers,
        buildValidator: asFastifyFactory(options.buildValidator ?? lazily(ajvValidators())),
      },
    },
    // registerRequestLog writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  deps.background.logTo(app.log);
  app.decorate('stopping', false);
  registerTracing(app, deps.tracer);
  registerErrorHandler(app);
  registerRequestLog(app, { probes: deps.config.logHealthProbes });
  registerServerLimits(app, deps.config);
  registerInputGuard(app);
  registerCors(app);
  registerSigning(app, { key: deps.signingKey, issuer: deps.config.issuer, clock: deps.clock, demo: deps.config.demo, log: deps.tlog });
  deps.metrics.register(app, deps.config.metricsToken);
  await registerOpenApi(app, deps.config, deps.registry);

  const secret = (purpose: string) => derivedSecret(deps.signingKey.privateKey, purpose);
  const payments = createPaymentGate(deps, { memo: secret('memo'), pass: secret('pass') });
  payments.attach(app);
  const protection = new Protection(deps.config, deps.cache, deps.repos.apiKeys, deps.clock, {
    presentsCredential: (request) => payments.presentsPass(request) || presentedAgentKey(request) !== undefined,
    hasPass: (request) => payments.hasPass(request),
    calibProAgent: calibProAgentOf(deps.repos.calibPro, deps.clock),
  });
  registerProtection(app, protection);
  const entities = new EntityGraph(deps.registry, deps.config.publicUrl);
  const ctx: AppContext = {
    deps,
    cursors: new CursorCodec(secret('cursor')),
    payments,
    protection,
    jobs: [],
    entities,
    entityToQ: async (type, entityId, q) => entities.toQ(type, entityId, q),
  };
  for (const feature of FEATURES) await app.register(feature(ctx));

  const scheduler = new Scheduler(ctx.jobs, deps.repos.leases, deps.clock, deps.background);
  app.decorate('scheduler', scheduler);
  if (deps.config.scheduler) app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());
  // Checkpoints are not a scheduler job: every instance integrates (one at a time, under the store's lock).
  app.addHook('onReady', async () => deps.tlog.start());
  app.addHook('onClose', async () => deps.tlog.stop());
  return app;
}
