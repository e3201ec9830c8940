import { importOnce } from './import-once.js';

/**
 * The token budget of an answer an agent pastes into its context (issue 35): 10,000 tokens of OpenAI's o200k_base
 * encoding (counted with gpt-tokenizer; other tokenizers count within a few percent of it on JSON), so it fits any
 * client's tool-result cap (Claude Code's is 25,000). MCP results keep to it (src/mcp/budget.ts), and so do the
 * REST lists an agent is likely to paste (entity/list), which cut a page short and say where the next starts.
 */
export const TOKEN_BUDGET = 10_000;

/** o200k_base tokens of a value as a client receives it (its JSON text). */
export type Tokens = (value: unknown) => number;

// The encoding's tables cost memory and start-up time: loaded with the first answer that needs counting.
const loadEncoding = importOnce(() => import('gpt-tokenizer/encoding/o200k_base'));

export async function tokenCounter(): Promise<Tokens> {
  const { countTokens } = await loadEncoding();
  return (value) => countTokens(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The longest prefix of `items` whose JSON takes at most `tokens` (always at least one item, so a list moves on). */
export function prefixWithin<T>(items: T[], tokens: number, count: Tokens): T[] {
  let used = 2; // the brackets
  const kept: T[] = [];
  for (const item of items) {
    used += count(item) + 1;
    if (used > tokens && kept.length) break;
    kept.push(item);
  }
  return kept;
}
