import type { CompleteResult } from '@modelcontextprotocol/sdk/types.js';

/** At most this many values per answer, as the MCP completion spec allows. */
const MAX_VALUES = 100;

/** The known values that start with what the client typed so far (case-insensitive), in their listed order. */
export function completion(values: string[], typed: string): CompleteResult {
  const prefix = typed.toLowerCase();
  const matching = values.filter((v) => v.toLowerCase().startsWith(prefix));
  return { completion: { values: matching.slice(0, MAX_VALUES), total: matching.length, hasMore: matching.length > MAX_VALUES } };
}
