import { ApiError } from '../core/errors.js';
import { bearerToken, sameSecret } from '../core/secrets.js';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallReport } from '../upstream/health.js';
import { RequestMetrics } from './request-metrics.js';

/** One Prometheus registry per app, so several apps in one process (tests) do not collide. */
export class Metrics {
  readonly registry = new Registry();
  /** HTTP requests and their latency: plain numbers on the hot path, written out on scrape. */
  private readonly requests = new RequestMetrics();
  private readonly upstreamRequests = new Counter({
    name: 'svc_upstream_requests_total',
    help: 'Upstream calls (retries included) by upstream host and outcome: ok, error, timeout, rate_limited, bad_response, circuit_open, key_missing',
    labelNames: ['upstream', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly upstreamLatency = new Histogram({
    name: 'svc_upstream_request_duration_seconds',
    help: 'Wall time of upstream calls that reached the network (retries included), by upstream host',
    labelNames: ['upstream'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
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

  private readonly backgroundErrors = new Counter({
    name: 'svc_background_errors_total',
    help: 'Failures of background work (scheduled jobs, stale-answer refreshes, session feeds, unhandled rejections), by job',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
  }

  readonly observeUpstream = ({ host, outcome, ms }: CallReport): void => {
    this.upstreamRequests.inc({ upstream: host, outcome });
    if (ms > 0) this.upstreamLatency.observe({ upstream: host }, ms / 1000);
  };

  readonly observeRedisFallback = (operation: string): void => {
    this.redisFallbacks.inc({ operation });
  };

  readonly observeRedisAvailable = (available: boolean): void => {
    this.redisAvailable.set(available ? 1 : 0);
  };

  readonly observeBackgroundError = (job: string): void => {
    this.backgroundErrors.inc({ job });
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
