import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import { BuildFields, buildFields } from '../status/build.js';

const Health = Type.Object({ ok: Type.Boolean(), store: Type.String(), engine: Type.String(), ...BuildFields });
const Readiness = Type.Object({
  ok: Type.Boolean({ description: 'true when every dependency answered within the deadline' }),
  store: Type.String({ description: 'ok, or timeout / unreachable' }),
  redis: Type.String({ description: 'ok, timeout / unreachable, or not_configured' }),
  deadline_ms: Type.Integer(),
});

type Check = 'ok' | 'timeout' | 'unreachable';

/** ok when `probe` resolves truthy within `deadlineMs`. */
async function within(deadlineMs: number, probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs)));
  const answered = probe().then(
    (value): Check => (value ? 'ok' : 'unreachable'),
    (error: Error): Check => (/timed out/i.test(error?.message) ? 'timeout' : 'unreachable'),
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

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

    app.get(
      '/healthz',
      {
        schema: {
          tags: ['ops'],
          summary: 'Liveness: the process answers and its store is reachable',
          description: 'For restarts. Readiness to take traffic, Redis included, is GET /readyz.',
          response: { 200: Health, 503: Health },
        },
      },
      async (_request, reply) => {
        const reachable = await deps.store.ping();
        reply.code(reachable ? 200 : 503);
        return { ok: reachable, store: reachable ? 'reachable' : 'unreachable', engine: deps.store.engine, ...buildFields(deps.store) };
      },
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: ['ops'],
          summary: 'Readiness: the database and Redis answer within the deadline',
          description:
            `For load balancers: 503 while the database or Redis (when configured) does not answer within SVC_READY_TIMEOUT_MS (${deps.config.readyTimeoutMs} ms). ` +
            'During a Redis outage the instance still serves (rate limits fall back to the in-process limiter) but reports not ready, so a balancer can prefer instances that see Redis.',
          response: { 200: Readiness, 503: Readiness },
        },
      },
      async (_request, reply) => {
        const deadline = deps.config.readyTimeoutMs;
        const redis = deps.redis;
        const [store, redisCheck] = await Promise.all([
          within(deadline, () => deps.store.ping()),
          redis ? within(deadline, () => redis.ping()) : Promise.resolve('not_configured' as const),
        ]);
        const ok = !app.stopping && store === 'ok' && (redisCheck === 'ok' || redisCheck === 'not_configured');
        reply.code(ok ? 200 : 503);
        return { ok, store, redis: redisCheck, deadline_ms: deadline };
      },
    );
  };
