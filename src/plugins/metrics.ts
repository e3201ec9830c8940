import { ApiError } from '../core/errors.js';
import { bearerToken, sameSecret } from '../core/secrets.js';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallOutcome } from '../upstream/client.js';
import { RequestMetrics } from './request-metrics.js';

/** One Prometheus registry per app, so several apps in one process (tests) do not collide. */
export class Metrics {
  readonly registry = new Registry();
  /** HTTP requests and their latency: plain numbers on the hot path, written out on scrape. */
  private readonly requests = new RequestMetrics();
  private readonly upstreamCalls = new Counter({
    name: 'svc_upstream_calls_total',
    help: 'Upstream calls by upstream host and outcome',
    labelNames: ['upstream', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly redisFallbacks = new Counter({
    name: 'svc_redis_fallbacks_total',
    help: 'Cache operations the in-process cache answered because Redis was unavailable, by operation',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  private readonly redisAvailable = new Gauge({
    name: 'svc_redis_available',
    help: '1 while Redis answers within its deadline, 0 during an outage (only with REDIS_URL)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
  }

  readonly observeUpstream = (upstream: string, outcome: CallOutcome): void => {
    this.upstreamCalls.inc({ upstream, outcome });
  };

  readonly observeRedisFallback = (operation: string): void => {
    this.redisFallbacks.inc({ operation });
  };

  readonly observeRedisAvailable = (available: boolean): void => {
    this.redisAvailable.set(available ? 1 : 0);
  };

  /** With a token, /metrics answers only `Authorization: Bearer <token>`; without one it is open (keep it off the public network). */
  register(app: FastifyInstance, token?: string): void {
    this.requests.register(app);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (token && !sameSecret(bearerToken(request) ?? '', token))
        throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <SVC_METRICS_TOKEN>');
      reply.type(this.registry.contentType);
      return `${await this.registry.metrics()}\n${this.requests.render()}`;
    });
  }
}
