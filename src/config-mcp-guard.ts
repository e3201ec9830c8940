import type { Env } from './config-env.js';

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
