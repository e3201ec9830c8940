import type { FastifyInstance } from 'fastify';
import { pathOf } from '../core/url-path.js';

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
  // The line's `req` is what the `req` serializer keeps (method, URL with secrets redacted, address): the header paths
  // the root logger redacts are never in it, so the line's logger does not walk it for them (a sixth of the line's cost).
  const log = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (request, reply, done) => {
    // With the id as the first field, the line is what request.log would write (its binding comes first too),
    // without making request.log's child (plugins/deferred-logger.ts).
    if (probes || !PROBES.has(pathOf(request.url)))
      log.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
}
