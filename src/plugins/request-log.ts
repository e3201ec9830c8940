import type { FastifyInstance } from 'fastify';

/** Probes a balancer or Prometheus sends every few seconds: logged only when asked for (SVC_LOG_HEALTH_PROBES). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One log line per request, written when it is answered, with what Fastify's two lines (`incoming
 * request`, `request completed`) said between them: method, URL (secrets redacted by the `req`
 * serializer), client address, status and time. Health probes stay out of the log unless `probes`.
 */
export function registerRequestLog(app: FastifyInstance, { probes }: { probes: boolean }): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (probes || !PROBES.has(request.url.split('?')[0]!))
      request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}
