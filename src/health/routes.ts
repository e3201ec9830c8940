import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import { BuildFields, buildFields } from '../status/build.js';
import { storeCheck, within } from './store-check.js';

const StoreOutage = Type.Optional(
  Type.Union([Type.Literal('shared'), Type.Literal('this_instance')], {
    description:
      'with a shared database (Postgres) that does not answer: this_instance when another instance has reached it since this one began failing (the probe fails), shared when none is known to (the probe holds: every instance answers 503 store_unavailable for what needs the database)',
  }),
);
const Health = Type.Object({
  ok: Type.Boolean({ description: 'true when the process answers and its store is reachable, or is away for every instance' }),
  store: Type.String({ description: 'reachable or unreachable' }),
  store_outage: StoreOutage,
  engine: Type.String(),
  ...BuildFields,
});
const Readiness = Type.Object({
  ok: Type.Boolean({
    description:
      'true when this instance can serve: its database answers within the deadline and takes writes, or is away for every instance',
  }),
  store: Type.String({ description: 'ok, timeout / unreachable, or write_failed (SQLite: a write failed for want of disk)' }),
  store_error: Type.Optional(Type.String({ description: 'with write_failed: the database error code, e.g. SQLITE_FULL' })),
  store_outage: StoreOutage,
  redis: Type.String({ description: 'ok, timeout / unreachable, or not_configured; reported, never counted against readiness' }),
  deadline_ms: Type.Integer(),
});

/** One warning when Redis becomes unavailable and one line when it is back: not one per failed command. */
function logRedisOutages(deps: Deps, log: { warn(o: object, m: string): void; info(m: string): void }): void {
  deps.redisAvailability?.onChange((available, error) => {
    if (available) return log.info('Redis answers again: rate limits, counters and slots are shared across instances again');
    log.warn(
      { err: error },
      'Redis is unavailable: rate limits, counters, cached answers and stream slots fall back to this instance; single-use claims answer 503',
    );
  });
}

export const healthRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    logRedisOutages(deps, app.log);
    const checkStore = storeCheck(deps);

    app.get(
      '/healthz',
      {
        schema: {
          tags: ['ops'],
          summary: 'Liveness: the process answers and its store is reachable',
          description:
            `For restarts: 503 when the store does not answer within SVC_READY_TIMEOUT_MS (${deps.config.readyTimeoutMs} ms) and, for a shared database (Postgres), another instance has reached it since ` +
            '(`store_outage`: restarting every instance would not bring back a database away for all of them). Readiness to take traffic, Redis included, is GET /readyz.',
          response: { 200: Health, 503: Health },
        },
      },
      async (_request, reply) => {
        const { reached, outage } = await checkStore();
        const reachable = reached === 'ok';
        const ok = reachable || outage === 'shared';
        reply.code(ok ? 200 : 503);
        return {
          ok,
          store: reachable ? 'reachable' : 'unreachable',
          ...(outage ? { store_outage: outage } : {}),
          engine: deps.store.engine,
          ...buildFields(deps.store),
        };
      },
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: ['ops'],
          summary: 'Readiness: this instance can serve (its database answers and takes writes)',
          description:
            `For load balancers: 503 while this instance's database does not answer within SVC_READY_TIMEOUT_MS (${deps.config.readyTimeoutMs} ms) ` +
            'and, for a shared database (Postgres), another instance has reached it since (`store_outage`: a database away for every instance fails none of them), ' +
            'or, on SQLite, while writes fail for want of disk (until one succeeds again), and while it drains on shutdown (SVC_SHUTDOWN_DRAIN_MS). The server listens only once start-up is done. ' +
            'Redis is shared by every instance: its state is reported in `redis` (and the svc_redis_available metric) but never fails readiness, ' +
            'because during a Redis outage every instance still serves (rate limits fall back to the in-process limiter) and failing them all at once would turn a blip into an outage.',
          response: { 200: Readiness, 503: Readiness },
        },
      },
      async (_request, reply) => {
        const deadline = deps.config.readyTimeoutMs;
        const redis = deps.redis;
        const [{ reached, outage }, redisCheck] = await Promise.all([
          checkStore(),
          redis ? within(deadline, () => redis.ping()) : Promise.resolve('not_configured' as const),
        ]);
        const writeFailure = reached === 'ok' ? deps.store.writeFailure() : undefined;
        const store = writeFailure ? 'write_failed' : reached;
        // Draining on shutdown (SVC_SHUTDOWN_DRAIN_MS) takes the instance out of the balancer while it still serves.
        const ok = !app.stopping && (store === 'ok' || outage === 'shared');
        reply.code(ok ? 200 : 503);
        return {
          ok,
          store,
          ...(writeFailure ? { store_error: writeFailure } : {}),
          ...(outage ? { store_outage: outage } : {}),
          redis: redisCheck,
          deadline_ms: deadline,
        };
      },
    );
  };
