/** Store generations remembered (as many as the memory cache holds values). */
const MAX_GENERATIONS = 50_000;

/**
 * cache key → number of the last store this process made under it, bounded (the oldest key is
 * forgotten first, and a forgotten key reads undefined): answers built on an older store are retired.
 */
export class Generations {
  private readonly byKey = new Map<string, number>();
  private last = 0;

  of(cacheKey: string): number | undefined {
    return this.byKey.get(cacheKey);
  }

  bump(cacheKey: string): void {
    this.byKey.delete(cacheKey);
    this.byKey.set(cacheKey, ++this.last);
    if (this.byKey.size > MAX_GENERATIONS) this.byKey.delete(this.byKey.keys().next().value as string);
  }
}
