import type { Entity } from '../entities/dataset.js';
import type { EntityResolver } from '../entities/resolver.js';

/** A word of two or more characters, or a `$` ticker of any length (`$V`). */
const WORD = /\$[A-Za-z][A-Za-z0-9.&-]{0,20}|[A-Za-z][A-Za-z0-9.&-]{1,20}/g;
const isSymbolLike = (s: string) => s === s.toUpperCase();

/**
 * The entity a goal names, from its words: `$AAPL`, an upper-case symbol (`BTC`), or a name spelled
 * out (`bitcoin`, `Apple`). Lower-case words never match a symbol alias, so "near" or "link" in a
 * sentence do not turn into NEAR or Chainlink.
 */
export function subjectOf(goal: string, resolver: EntityResolver): Entity | undefined {
  for (const [raw] of goal.matchAll(WORD)) {
    const word = raw.replace(/^\$/, '');
    const symbolic = raw.startsWith('$') || isSymbolLike(word);
    for (const match of resolver.resolve(word, 3).matches) {
      const entity = resolver.get(match.id)!;
      if (match.confidence === 1 && symbolic) return entity;
      const spelled = [entity.name, ...entity.aliases].some((n) => !isSymbolLike(n) && n.toLowerCase() === word.toLowerCase());
      if (spelled) return entity;
    }
  }
  return undefined;
}
