/** Routes outside the rate limiter: the probes and metrics an orchestrator or scraper calls on its own schedule. */
export const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);
