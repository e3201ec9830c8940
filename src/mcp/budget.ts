import { TOKEN_BUDGET } from '../core/token-budget.js';

export { tokenCounter, type Tokens } from '../core/token-budget.js';

/** The token budget of an MCP result: what a client reads (text content, structuredContent and _meta), see core/token-budget.ts. */
export const MCP_TOKEN_BUDGET = TOKEN_BUDGET;
/** What a page's structuredContent and its text rendering may take together: the rest is the envelope and `_meta`. */
export const PAGE_TOKENS = 9_000;
