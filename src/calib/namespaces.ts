/**
 * Agent-id namespaces (`<namespace>:<identifier>`) that only svc itself writes: the decision arena's
 * strategies and later features' model verdicts. Requests from outside that write for them are 403;
 * svc records their claims by calling CalibrationService directly, never over HTTP.
 */
export const RESERVED_NAMESPACES = ['arena', 'olympics', 'chart', 'constitutional', 'shield'] as const;
export type ReservedNamespace = (typeof RESERVED_NAMESPACES)[number];

const RESERVED: ReadonlySet<string> = new Set(RESERVED_NAMESPACES);

/** The part of an agent id before its first `:`. */
export const namespaceOf = (agentId: string): string => agentId.slice(0, Math.max(0, agentId.indexOf(':')));

/** Case-insensitive, so `Arena:` is as reserved as `arena:`. */
export const isReserved = (agentId: string): boolean => RESERVED.has(namespaceOf(agentId).toLowerCase());
