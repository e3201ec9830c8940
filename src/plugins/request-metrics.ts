import type { FastifyInstance, onResponseHookHandler } from 'fastify';

/** Upper bounds (seconds) of the request-latency histogram. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UNMATCHED = 'unmatched';

/** One method and route: answers by status, and latency per bucket (not cumulative until written out). */
class RouteStats {
  readonly byStatus = new Map<number, number>();
  readonly perBucket: number[] = BUCKETS.map(() => 0);
  sum = 0;
  count = 0;

  observe(status: number, seconds: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    const bucket = BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) this.perBucket[bucket]!++;
    this.sum += seconds;
    this.count++;
  }
}

const label = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/**
 * HTTP requests and their latency by method and route, kept as plain numbers: each route's hook is
 * bound to its series when the route is registered, so answering a request costs no label hashing
 * and no route lookup (prom-client's per-call hashing and Fastify's `routeOptions` getter cost several
 * µs on the cached-preview path). Written in the Prometheus text format when /metrics is read.
 */
export class RequestMetrics {
  private readonly series = new Map<string, RouteStats>();

  /** Counts every answered request; call before any route is registered. */
  register(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const stats = this.statsOf(route.url);
      const observe: onResponseHookHandler = (request, reply, done) => {
        stats(request.method).observe(reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
      route.onResponse = [...[route.onResponse ?? []].flat(), observe];
    });
    // The not-found handler is no route: unmatched requests share one label, so scanners cannot grow the label space.
    const unmatched = this.statsOf(UNMATCHED);
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) unmatched(request.method).observe(reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }

  /** The Prometheus text of both metrics. */
  render(): string {
    const counts = ['# HELP svc_http_requests_total HTTP requests by route and status', '# TYPE svc_http_requests_total counter'];
    const latency = [
      '# HELP svc_http_request_duration_seconds HTTP request latency by route',
      '# TYPE svc_http_request_duration_seconds histogram',
    ];
    for (const [key, stats] of this.series) {
      const [method, route] = key.split(' ', 2) as [string, string];
      const labels = `method="${label(method)}",route="${label(route)}"`;
      for (const [status, n] of stats.byStatus) counts.push(`svc_http_requests_total{${labels},status="${status}"} ${n}`);
      let cumulative = 0;
      BUCKETS.forEach((bound, i) => {
        cumulative += stats.perBucket[i]!;
        latency.push(`svc_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`);
      });
      latency.push(`svc_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${stats.count}`);
      latency.push(
        `svc_http_request_duration_seconds_sum{${labels}} ${stats.sum}`,
        `svc_http_request_duration_seconds_count{${labels}} ${stats.count}`,
      );
    }
    return `${counts.join('\n')}\n\n${latency.join('\n')}\n`;
  }

  /** The stats of `route` by method, each created on its first request. */
  private statsOf(route: string): (method: string) => RouteStats {
    const byMethod = new Map<string, RouteStats>();
    return (method) => {
      let stats = byMethod.get(method);
      if (!stats) byMethod.set(method, (stats = this.created(`${method} ${route}`)));
      return stats;
    };
  }

  private created(key: string): RouteStats {
    const stats = this.series.get(key) ?? new RouteStats();
    this.series.set(key, stats);
    return stats;
  }
}
