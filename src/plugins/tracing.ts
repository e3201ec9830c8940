import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Span, Tracer } from '../core/tracing.js';

/**
 * One server span per request (named after the route, e.g. `GET /api/data/preview`), active while the handler
 * runs so the upstream calls it makes become child spans. Registered only when tracing is on: with it off, no
 * hook is added at all. Call before the feature routes are registered (handlers are wrapped as routes are added).
 */
export function registerTracing(app: FastifyInstance, tracer: Tracer): void {
  if (!tracer.enabled) return;
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const path = request.url.split('?')[0];
    spans.set(
      request,
      tracer.start(`${request.method} ${route}`, 'server', {
        'http.request.method': request.method,
        'http.route': route,
        'url.path': path,
      }),
    );
    done();
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      const span = spans.get(request);
      return span ? span.run(() => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    span?.set({ 'http.response.status_code': reply.statusCode });
    if (reply.statusCode >= 500) span?.fail(`HTTP ${reply.statusCode}`);
    span?.end();
    done();
  });
}
