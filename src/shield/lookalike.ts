import { domainToUnicode } from 'node:url';
import type { Entity } from '../entities/dataset.js';

/**
 * Characters that render like Latin letters (Cyrillic and Greek homoglyphs, digits used as letters),
 * folded to the letter they imitate: a pragmatic subset of Unicode's confusables.txt covering what
 * lookalike domains and token names use.
 */
const CONFUSABLE: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  к: 'k',
  м: 'm',
  т: 't',
  в: 'b',
  н: 'h',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ι: 'i',
  ν: 'v',
  κ: 'k',
  τ: 't',
  χ: 'x',
  υ: 'u',
  ε: 'e',
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
/** Letter pairs that read as one letter in most fonts. */
const DIGRAPHS: [RegExp, string][] = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/cl/g, 'd'],
];

/** Lower-case letters and digits only, accents stripped. */
export const plain = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * What a string looks like: confusables folded, i/l merged, then digraphs merged. Two strings with the same skeleton
 * look alike. i/l merges first so `ci` reaches the `cl` → `d` digraph in one pass (regression: skeleton was not
 * idempotent); the digraphs' outputs (m, w, d) start or end none of them, so no second pass is needed.
 */
export function skeleton(text: string): string {
  const folded = [...text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()].map((c) => CONFUSABLE[c] ?? c).join('');
  return DIGRAPHS.reduce((s, [pattern, to]) => s.replace(pattern, to), folded.replace(/[^a-z]/g, '').replace(/i/g, 'l'));
}

/** Levenshtein distance, capped at `max` + 1 (and stopping early once it passes `max`). */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...current) > max) return max + 1;
    previous = current;
  }
  return Math.min(previous[b.length]!, max + 1);
}

/** Names shorter than this are too common as words to judge a lookalike by. */
const MIN_NAME = 5;

export interface NameMatch {
  entity_id: string;
  entity_name: string;
  matched: string;
  how: 'exact' | 'homoglyph' | 'typo' | 'contains';
}

/** A known entity's names (name and aliases, plain), for lookalike checks against domains and token names. */
export class LookalikeIndex {
  private readonly names: { entity: Entity; name: string; skeleton: string }[];

  constructor(readonly entities: readonly Entity[]) {
    this.names = entities.flatMap((entity) =>
      [...new Set([entity.name, ...entity.aliases].map(plain).filter((n) => n.length >= MIN_NAME))].map((name) => ({
        entity,
        name,
        skeleton: skeleton(name),
      })),
    );
  }

  /** How `label` (one domain label or word, possibly Unicode) relates to a known name; the closest match wins. */
  match(label: string): NameMatch | undefined {
    const ascii = plain(label);
    const shape = skeleton(label);
    const found = (how: NameMatch['how']) => (n: (typeof this.names)[number]) => ({
      entity_id: n.entity.id,
      entity_name: n.entity.name,
      matched: n.name,
      how,
    });
    const exact = this.names.find((n) => n.name === ascii && /^[a-z0-9-]+$/i.test(label));
    if (exact) return found('exact')(exact);
    const homoglyph = this.names.find((n) => n.skeleton === shape);
    if (homoglyph) return found('homoglyph')(homoglyph);
    const typo = this.names.find((n) => n.name.length >= 6 && editDistance(ascii, n.name, 1) === 1);
    if (typo) return found('typo')(typo);
    const parts = label.toLowerCase().split(/[-_.]/).filter(Boolean);
    const contains =
      parts.length > 1 ? this.names.find((n) => parts.some((p) => plain(p) === n.name || skeleton(p) === n.skeleton)) : undefined;
    return contains && found('contains')(contains);
  }

  /** The entity whose contract on `chain` is `address` (lower-case), if any. */
  byContract(chain: string, address: string): Entity | undefined {
    return this.entities.find((e) => e.contracts?.[chain]?.toLowerCase() === address);
  }

  /** Entities whose symbol or name equals a token's (case-insensitive), with a contract on `chain`. */
  byTokenName(chain: string, symbol: string | null, name: string | null): Entity[] {
    const wanted = new Set([symbol, name].filter((s): s is string => !!s).map(plain));
    return this.entities.filter(
      (e) => e.contracts?.[chain] && [e.name, e.ids.symbol ?? '', ...e.aliases].some((n) => wanted.has(plain(n))),
    );
  }
}

/** The labels of a host worth comparing: all but the TLD, punycode decoded. */
export const hostLabels = (host: string): string[] => domainToUnicode(host).split('.').slice(0, -1).filter(Boolean);
