/**
 * Seeded randomness for the demo world: every draw is a pure function of (seed, key), so the world at any instant is
 * the same whenever and however often it is asked, and two seeds give two worlds.
 */

/** 32-bit FNV-1a of the text, mixed with the seed and finalized (murmur3's avalanche). */
export function hash32(seed: number, text: string): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Uniform in (0, 1). */
export const uniform = (seed: number, key: string): number => (hash32(seed, key) + 0.5) / 2 ** 32;

/** Uniform in [min, max). */
export const between = (seed: number, key: string, min: number, max: number): number => min + uniform(seed, key) * (max - min);

/** A whole number in [min, max]. */
export const intBetween = (seed: number, key: string, min: number, max: number): number => Math.floor(between(seed, key, min, max + 1));

/** One of the items. */
export const pick = <T>(seed: number, key: string, items: readonly T[]): T => items[Math.floor(uniform(seed, key) * items.length)]!;

/** `count` hex digits (addresses, hashes). */
export const hex = (seed: number, key: string, count: number): string => {
  let out = '';
  for (let i = 0; out.length < count; i++) out += hash32(seed, `${key}#${i}`).toString(16).padStart(8, '0');
  return out.slice(0, count);
};

/** A table's own entry for a key a request chose (never an inherited one such as `constructor`). */
export const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;
