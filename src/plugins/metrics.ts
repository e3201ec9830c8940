import { ApiError } from '../core/errors.js';
import { bearerToken, sameSecret } from '../core/secrets.js';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallOutcome } from '../upstream/client.js';

/** One Prometheus registry per app, so several apps in one process (tests) do not collide. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly upstreamCalls = new Counter({
    name: 'svc_upstream_calls_total',
    help: 'Upstream calls by upstream host and outcome',
    labelNames: ['upstream', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Bound children per label set; bounded like the label space itself (routes × methods × statuses). */
  private readonly requestChildren = new Map<string, ReturnType<Metrics['requests']['labels']>>();
  private readonly latencyChildren = new Map<string, ReturnType<Metrics['latency']['labels']>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
  }

  private series(method: string, route: string, status: number) {
    const key = `${method} ${route} ${status}`;
    let child = this.requestChildren.get(key);
    if (!child) this.requestChildren.set(key, (child = this.requests.labels(method, route, String(status))));
    return child;
  }

  private latencySeries(method: string, route: string) {
    const key = `${method} ${route}`;
    let child = this.latencyChildren.get(key);
    if (!child) this.latencyChildren.set(key, (child = this.latency.labels(method, route)));
    return child;
  }

  readonly observeUpstream = (upstream: string, outcome: CallOutcome): void => {
    this.upstreamCalls.inc({ upstream, outcome });
  };

  /** With a token, /metrics answers only `Authorization: Bearer <token>`; without one it is open (keep it off the public network). */
  register(app: FastifyInstance, token?: string): void {
    // Callback style and label-bound children: no promise and no label hashing per answer.
    app.addHook('onResponse', (request, reply, done) => {
      // Unmatched routes share one label so scanners cannot blow up the label space.
      const route = request.routeOptions.url ?? 'unmatched';
      this.series(request.method, route, reply.statusCode).inc();
      this.latencySeries(request.method, route).observe(reply.elapsedTime / 1000);
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (token && !sameSecret(bearerToken(request) ?? '', token))
        throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <SVC_METRICS_TOKEN>');
      reply.type(this.registry.contentType);
      return this.registry.metrics();
    });
  }
}
