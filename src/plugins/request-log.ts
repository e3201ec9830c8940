import type { FastifyInstance } from 'fastify';

/** Probes a balancer or Prometheus sends every few seconds: logged only when asked for (SVC_LOG_HEALTH_PROBES). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
const WRITES_INFO = new Set(['info', 'debug', 'trace']);

/**
 * One log line per request, written when it is answered, with what Fastify's two lines (`incoming
 * request`, `request completed`) said between them: method, URL (secrets redacted by the `req`
 * serializer), client address, status and time. Health probes stay out of the log unless `probes`.
 */
export function registerRequestLog(app: FastifyInstance, { probes }: { probes: boolean }): void {
  // No logger (silent), or one above info: the line would never be written, so no hook at all.
  if (!WRITES_INFO.has(app.log.level)) return;
  const log = app.log;
  app.addHook('onResponse', (request, reply, done) => {
    // The root logger with the id as the first field writes what request.log would (its binding comes first too),
    // without making request.log's child (plugins/deferred-logger.ts).
    if (probes || !PROBES.has(request.url.split('?')[0]!))
      log.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}
