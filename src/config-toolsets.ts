/**
 * The MCP toolsets, and the words that select them (`/mcp?toolsets=…`, `SVC_MCP_TOOLSETS`). Kept
 * free of imports so the configuration schema can validate the variable with the same list.
 */
export const TOOLSETS = ['data', 'calibration', 'sessions', 'safety', 'arena', 'chart', 'portfolio'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** What an agent gets when it names nothing: the data tools and the safety checks to run before acting. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['data', 'safety'];

/** `all` = every toolset, `default` = DEFAULT_TOOLSETS, `dynamic` = the three meta-tools that reach every tool. */
export const TOOLSET_WORDS = [...TOOLSETS, 'all', 'default', 'dynamic'] as const;

/** A comma-separated list of TOOLSET_WORDS, as a regular expression for the configuration schema. */
export const TOOLSETS_PATTERN = `^(${TOOLSET_WORDS.join('|')})(,(${TOOLSET_WORDS.join('|')}))*$`;
