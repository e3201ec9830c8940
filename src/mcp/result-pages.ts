import { randomBytes } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MemoryCache } from '../cache/memory.js';
import { PAGE_TOKENS, tokenCounter } from './budget.js';
import { compactText } from './compact-text.js';
import { paginate, type Cut, type Json, type Page } from '../core/paginate.js';

/**
 * Tool results that fit (issue 35, item 2): a result is its compact text (what a model reads) next to
 * structuredContent (what code reads), both together under the page budget. A larger answer is cut into pages
 * (core/paginate.ts); the first is the result and the rest wait in the store under a random key for PAGE_TTL_MS, reached
 * with the `next` cursor of each page's `_page` through the next_page tool. The store is the service's cache, so
 * with Redis any instance serves the pages of any other.
 */
export interface PageStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
}

/** The pages of a process without a shared cache (the stdio server relaying to another svc). */
export const processPages: PageStore = new MemoryCache(() => Date.now(), 1_000);

export const PAGE_CURSOR = 'svc-page:';
export const PAGE_TTL_MS = 15 * 60_000;
const storeKey = (id: string) => `mcp-pages:${id}`;

interface Stored {
  /** The result's first line (tool, status, receipt) for every page. */
  head: string;
  pages: Page[];
}

export const NEXT_PAGE_TOOL: Tool = {
  name: 'next_page',
  title: 'Next page of a long result',
  description:
    'A result too long for one answer comes in pages; its _page.next is a cursor: pass it here for the next page (kept 15 minutes).',
  inputSchema: {
    type: 'object',
    properties: { cursor: { type: 'string', description: 'the _page.next of the previous page (svc-page:…)' } },
    required: ['cursor'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    description: 'the next page: the shape of the first page, its _page saying which part of the answer it holds',
    properties: { _page: { type: 'object' } },
  },
  annotations: { title: 'Next page of a long result', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/** The result of an answer: its first page, with the rest stored when there is more. */
export async function pagedResult(head: string, value: Json, store: PageStore): Promise<{ text: string; structured: Json }> {
  const tokens = await tokenCounter();
  // What a page costs a client: its JSON and its text.
  const cost = (page: Json) => tokens(page) + tokens(compactText('', page));
  const pages = paginate(value, tokens, cost, PAGE_TOKENS);
  if (pages.length === 1) return { text: compactText(head, value), structured: value };
  const id = randomBytes(16).toString('base64url');
  await store.set(storeKey(id), { head, pages } satisfies Stored, PAGE_TTL_MS);
  return shown(head, pages, 0, id);
}

/** next_page: the page a cursor names, or an isError result naming the cursor when it is unknown or expired. */
export async function nextPageResult(args: Record<string, unknown>, store: PageStore): Promise<CallToolResult> {
  const cursor = typeof args.cursor === 'string' ? args.cursor : '';
  const [, id, index] = /^svc-page:([\w-]{22})\.(\d+)$/.exec(cursor) ?? [];
  const stored = id ? await store.get<Stored>(storeKey(id)) : undefined;
  const at = Number(index);
  if (!stored || !(at < stored.pages.length)) {
    const body = {
      error: 'invalid_cursor',
      message: 'unknown or expired page cursor (pages are kept 15 minutes): call the tool again',
      details: { field: 'cursor' },
    };
    return { content: [{ type: 'text', text: body.message }], structuredContent: body, isError: true };
  }
  const { text, structured } = shown(stored.head, stored.pages, at, id!);
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Page `at` with its `_page`: which part of the answer it holds and the cursor of the next. */
function shown(head: string, pages: Page[], at: number, id: string): { text: string; structured: Json } {
  const page = pages[at]!;
  const next = at + 1 < pages.length ? `${PAGE_CURSOR}${id}.${at + 1}` : undefined;
  const _page = { page: at + 1, pages: pages.length, ...(page.cut ? { cut: page.cut } : {}), ...(next ? { next } : {}) };
  const structured = { ...page.value, _page };
  const more = next ? `; next: next_page {"cursor":"${next}"}` : '; last page';
  return { text: compactText(`${head} (page ${at + 1} of ${pages.length}${describe(page.cut)}${more})`, page.value), structured };
}

const describe = (cut: Cut | undefined) => (cut ? `: ${cut.path} items ${cut.from}-${cut.to - 1} of ${cut.total}` : '');
