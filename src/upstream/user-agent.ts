import { HOSTS } from './hosts.js';

/** The hosts that want a name and contact in the User-Agent (SVC_USER_AGENT) and may refuse requests without one. */
export const identifyingHosts = (): string[] =>
  Object.entries(HOSTS)
    .filter(([, spec]) => 'userAgent' in spec && spec.userAgent === 'identify')
    .map(([name]) => name);

/** A warning when SVC_USER_AGENT still carries the placeholder contact of the default (an example.* address or domain). */
export function userAgentWarning(userAgent: string): string | undefined {
  if (!/\bexample\.(org|com|net)\b/i.test(userAgent)) return undefined;
  return (
    `SVC_USER_AGENT has a placeholder contact ("${userAgent}"): ${identifyingHosts().join(', ')} ask for your name and a real ` +
    'contact address and may refuse requests (SEC EDGAR answers 403); set it, e.g. SVC_USER_AGENT="acme-data/1.0 (ops@acme.com)"'
  );
}
