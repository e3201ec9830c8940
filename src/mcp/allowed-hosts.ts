import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import type { Env } from '../config-env.js';

/**
 * DNS rebinding guard of /mcp (the MCP specification asks servers to validate Origin): a web page
 * whose own name was made to resolve to 127.0.0.1 reaches a local server with its name in `Host`
 * and its origin in `Origin`. `hosts` are the host names (any port) a request may name; `origins`
 * the exact origins a browser request may come from, or `hosts` for origins on those host names.
 * A request without Origin (a program, not a browser page) is checked on Host alone.
 */
export interface McpGuard {
  hosts: string[] | 'any';
  origins: string[] | 'any' | 'hosts';
}

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

const LOOPBACK_BINDS = ['localhost', '127.0.0.1', '::1'];

/**
 * The DNS-rebinding guard of /mcp: the hosts named, or else on by default where it costs nothing to
 * set up — a loopback bind (what a rebinding attack reaches) or a declared public URL.
 */
export function mcpGuardOf(parsed: Pick<Env, 'HOST' | 'SVC_PUBLIC_URL' | 'SVC_MCP_ALLOWED_HOSTS' | 'SVC_MCP_ALLOWED_ORIGINS'>): McpGuard {
  const list = (text: string) => text.split(',').map((entry) => entry.trim().toLowerCase());
  const publicHost = parsed.SVC_PUBLIC_URL && new URL(parsed.SVC_PUBLIC_URL).hostname;
  const onByDefault = LOOPBACK_BINDS.includes(parsed.HOST) || parsed.HOST.startsWith('127.') || publicHost;
  const hosts =
    parsed.SVC_MCP_ALLOWED_HOSTS === '*'
      ? 'any'
      : parsed.SVC_MCP_ALLOWED_HOSTS
        ? list(parsed.SVC_MCP_ALLOWED_HOSTS)
        : onByDefault
          ? [...LOOPBACK_NAMES, ...(publicHost ? [publicHost] : [])]
          : 'any';
  const origins =
    parsed.SVC_MCP_ALLOWED_ORIGINS === '*' ? 'any' : (parsed.SVC_MCP_ALLOWED_ORIGINS?.split(',').map((o) => o.trim()) ?? 'hosts');
  return { hosts, origins };
}

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
