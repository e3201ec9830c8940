import { importOnce } from '../core/import-once.js';

/**
 * The token budget of an MCP result (issue 35): what a client reads (text content, structuredContent and _meta) stays
 * under MCP_TOKEN_BUDGET tokens of OpenAI's o200k_base encoding (counted with gpt-tokenizer; other tokenizers count
 * within a few percent of it on JSON), so it fits any client's tool-result cap (Claude Code's is 25,000).
 */
export const MCP_TOKEN_BUDGET = 10_000;
/** What a page's structuredContent and its text rendering may take together: the rest is the envelope and `_meta`. */
export const PAGE_TOKENS = 9_000;

/** o200k_base tokens of a value as a client receives it (its JSON text). */
export type Tokens = (value: unknown) => number;

// The encoding's tables cost memory and start-up time: loaded with the first result that needs counting.
const loadEncoding = importOnce(() => import('gpt-tokenizer/encoding/o200k_base'));

export async function tokenCounter(): Promise<Tokens> {
  const { countTokens } = await loadEncoding();
  return (value) => countTokens(typeof value === 'string' ? value : JSON.stringify(value));
}
