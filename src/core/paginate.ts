import type { Tokens } from './token-budget.js';

/**
 * Splits an answer too large for one result (an MCP result, or a REST answer asked for in pages) into pages that fit
 * (issue 35, item 2). The list holding the most text is cut into runs of whole items, everything else repeated on
 * every page; an item too large for a page on its own is split the same way inside. Token counts are o200k_base
 * (token-budget.ts): each item is counted once to estimate a
 * run, then each page's real count is checked (about once per page), so paging costs about two counts of the answer.
 */
export type Json = Record<string, unknown>;
type Path = (string | number)[];

/** Where a page cut the answer: the list (`results[3].data.results`), its items [from, to) and how many it has. */
export interface Cut {
  path: string;
  from: number;
  to: number;
  total: number;
}

export interface Page {
  value: Json;
  cut?: Cut;
}

/** What a page costs: its JSON and its text rendering (what fits must hold under the page budget). */
export type Cost = (value: Json) => number;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The list holding the most text, of at least two items (one item is split inside instead). */
function largestList(value: unknown, path: Path = []): { path: Path; size: number } | undefined {
  let best: { path: Path; size: number } | undefined;
  const visit = (node: unknown, at: Path) => {
    if (Array.isArray(node)) {
      const size = node.length > 1 ? JSON.stringify(node).length : 0;
      if (size && (!best || size > best.size)) best = { path: at, size };
      node.forEach((item, i) => visit(item, [...at, i]));
    } else if (isObject(node)) for (const [key, item] of Object.entries(node)) visit(item, [...at, key]);
  };
  visit(value, path);
  return best;
}

/** A copy of `value` with the list at `path` replaced by `items` (only the objects on the way are copied). */
function replaceAt(value: unknown, path: Path, items: unknown[]): unknown {
  if (!path.length) return items;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return (value as unknown[]).map((item, i) => (i === head ? replaceAt(item, rest, items) : item));
  const object = value as Json;
  return { ...object, [head!]: replaceAt(object[head!], rest, items) };
}

const getAt = (value: unknown, path: Path): unknown[] =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value) as unknown[];

const pathText = (path: Path) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('');

/** The pages of `value` under `budget` as `cost` counts them (`tokens` counts one item's JSON); one page when it fits. */
export function paginate(value: Json, tokens: Tokens, cost: Cost, budget: number): Page[] {
  if (cost(value) <= budget) return [{ value }];
  const list = largestList(value);
  // Nothing left to cut into runs (one huge item): the page is what it is; strings are bounded before this.
  if (!list) return [{ value }];
  const items = getAt(value, list.path);
  const page = (from: number, to: number) => replaceAt(value, list.path, items.slice(from, to)) as Json;
  const itemCosts = items.map((item) => tokens(item) + tokens(isObject(item) ? Object.values(item).join(' | ') : item));
  const base = cost(page(0, 0));
  const pages: Page[] = [];
  for (let from = 0; from < items.length;) {
    // 5% under the estimate: sums of per-item counts run a little over or under the count of the page as a whole.
    const to = fittingEnd(from, estimate(from, itemCosts, (budget - base) * 0.95), (end) => cost(page(from, end)) <= budget);
    if (to === from) {
      // One item alone is over the budget: split inside it, each of its pages standing for this one item.
      pages.push(
        ...paginate(page(from, from + 1), tokens, cost, budget).map((p) => ({
          ...p,
          cut: p.cut ?? cutOf(list.path, from, from + 1, items.length),
        })),
      );
      from += 1;
    } else {
      pages.push({ value: page(from, to), cut: cutOf(list.path, from, to, items.length) });
      from = to;
    }
  }
  return pages;
}

const cutOf = (path: Path, from: number, to: number, total: number): Cut => ({ path: pathText(path), from, to, total });

/** Where a run from `from` likely ends: as many items as their counted costs (JSON and text row) allow. */
function estimate(from: number, costs: number[], room: number): number {
  let end = from;
  for (let used = 0; end < costs.length && used + costs[end]! <= room; end += 1) used += costs[end]!;
  return end;
}

/** The end of the run from `from` that fits: the estimate, shrunk by a tenth at a time while the real count says no. */
function fittingEnd(from: number, guess: number, fits: (end: number) => boolean): number {
  let end = Math.max(guess, from + 1);
  while (end > from && !fits(end)) end = Math.min(end - 1, from + Math.floor((end - from) * 0.9));
  return end;
}
