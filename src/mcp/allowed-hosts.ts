import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import type { McpGuard } from '../config-mcp-guard.js';

/** The host name of a Host header or an origin (`[::1]` keeps its brackets), undefined when it is not one. */
function hostnameOf(hostOrUrl: string): string | undefined {
  try {
    return new URL(hostOrUrl.includes('://') ? hostOrUrl : `http://${hostOrUrl}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function refusal(request: FastifyRequest, guard: McpGuard): ApiError | undefined {
  if (guard.hosts !== 'any') {
    const host = hostnameOf(request.headers.host ?? '');
    if (!host || !guard.hosts.includes(host))
      return new ApiError('forbidden', `this server does not answer MCP requests for the host "${request.headers.host ?? ''}"`, {
        field: 'Host',
        setting: 'SVC_MCP_ALLOWED_HOSTS',
      });
  }
  const origin = request.headers.origin;
  if (origin === undefined || guard.origins === 'any') return undefined;
  const allowed =
    guard.origins === 'hosts' ? guard.hosts === 'any' || guard.hosts.includes(hostnameOf(origin) ?? '') : guard.origins.includes(origin);
  return allowed
    ? undefined
    : new ApiError('forbidden', `this server does not answer MCP requests from pages of the origin "${origin}"`, {
        field: 'Origin',
        setting: 'SVC_MCP_ALLOWED_ORIGINS',
      });
}

/** An onRequest hook refusing with 403 what the guard does not allow. */
export const guardHosts = (guard: McpGuard) => async (request: FastifyRequest, _reply: FastifyReply) => {
  const refused = refusal(request, guard);
  if (refused) throw refused;
};
