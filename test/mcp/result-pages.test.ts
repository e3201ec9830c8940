import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { MemoryCache } from '../../src/cache/memory.js';
import { nextPageResult, pagedResult } from '../../src/mcp/result-pages.js';
import { compactText } from '../../src/mcp/compact-text.js';

/**
 * Issue 35, item 2, past what the recorded world holds: an answer far larger than any tool returns today pages into
 * results of at most 10,000 o200k tokens each (structuredContent and its text rendering counted), every row once.
 * In its own file because counting tokens over 10,000 rows holds the event loop for seconds: beside an MCP client
 * in the same process (test/mcp/mcp-budget.test.ts), the client's idle keep-alive socket outlived the server's
 * keep-alive timeout meanwhile and the next call failed with "fetch failed".
 */
const BUDGET = 10_000;

describe('paged MCP results', () => {
  it('10,000 candles page into results under the budget, every candle once, in order', async () => {
    const data = Array.from({ length: 10_000 }, (_, i) => ({
      t: 1_790_000_000 + 60 * i,
      o: 91234.5 + i,
      h: 91300.25,
      l: 91200.75,
      c: 91250.5,
      v: 12.345,
    }));
    const answer = { type: 'crypto-price', q: 'BTC', interval: '1m', count: data.length, paid: true, data };
    const store = new MemoryCache(() => Date.now());
    const first = await pagedResult('backtest OK', answer, store);
    const pages = [first.structured];
    for (let next = first.structured._page as { next?: string }; next.next; next = pages.at(-1)!._page as { next?: string })
      pages.push((await nextPageResult({ cursor: next.next }, store)).structuredContent as Record<string, unknown>);
    for (const page of pages) expect(countTokens(JSON.stringify(page)) + countTokens(compactText('', page))).toBeLessThanOrEqual(BUDGET);
    expect(pages.flatMap((p) => p.data as unknown[])).toEqual(data);
    expect(pages[0]!._page).toMatchObject({ page: 1, pages: pages.length, cut: { path: 'data', from: 0, total: 10_000 } });
  });
});
