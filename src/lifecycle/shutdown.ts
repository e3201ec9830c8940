import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  /** How long in-flight requests have to finish (SVC_SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long the instance serves, not ready, before it stops accepting (SVC_SHUTDOWN_DRAIN_MS). */
  drainMs: number;
  /** Closes what the app does not own: pools, the demo simulator. */
  closeResources: () => Promise<void>;
  exit?: (code: number) => void;
}

/**
 * Graceful shutdown on SIGTERM or SIGINT: first drain (readiness fails while the instance still serves,
 * for SVC_SHUTDOWN_DRAIN_MS), then stop accepting connections, end the SSE streams (each
 * stream route ends its own in a preClose hook), let in-flight requests finish within the timeout,
 * then cut whatever connection is left, close the pools and exit 0. A second signal exits at once.
 */
export function exitOnSignals(app: FastifyInstance, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return exit(1);
    stopping = true;
    void shutDown(app, signal, options).then(
      () => exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

export async function shutDown(app: FastifyInstance, signal: string, options: ShutdownOptions): Promise<void> {
  if (options.drainMs > 0) await drain(app, options.drainMs);
  const { timeoutMs, closeResources } = options;
  app.log.info({ signal, timeout_ms: timeoutMs }, 'shutting down: no new connections; in-flight requests may finish');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const closed = app.close().then(() => 'closed' as const);
  if ((await Promise.race([closed, deadline])) === 'timeout') {
    app.log.warn({ timeout_ms: timeoutMs }, 'shutdown: requests still in flight at the deadline; closing their connections');
    app.server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  await closeResources();
  app.log.info('shut down');
}

/**
 * Serves on while /readyz answers 503, so a balancer that probes it (Caddy's health_uri, Kubernetes) stops
 * sending before the listener closes. From now until the process exits every answer closes its connection,
 * so a proxy's kept-alive connections end after a complete exchange: none is left idle for the close to cut
 * while the proxy may be sending a request on it.
 */
async function drain(app: FastifyInstance, drainMs: number): Promise<void> {
  app.log.info({ drain_ms: drainMs }, 'shutting down: /readyz answers 503; still serving until the drain ends');
  app.stopping = true;
  app.server.on('request', (_request: unknown, response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  });
  await new Promise((resolve) => setTimeout(resolve, drainMs));
}
