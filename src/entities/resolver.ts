import MiniSearch from 'minisearch';
import { roundTo } from '../core/numbers.js';
import { distance } from 'fastest-levenshtein';
import type { Entity, EntityType } from './dataset.js';

export interface Match {
  id: string;
  name: string;
  type: EntityType;
  confidence: number;
  /** Which identifier matched exactly (ticker, isin, cusip, contract:<chain>, …); `name` or `alias` for fuzzy matches. */
  matched_on: string;
}

export interface Resolution {
  matches: Match[];
  /** The top two are too close to pick one: the caller should choose. */
  ambiguous: boolean;
}

/** A runner-up within this confidence of the best match (exact ones included) makes a resolution ambiguous. */
export const AMBIGUITY_MARGIN = 0.05;
/** Name similarities below this are not matches at all. */
const MIN_CONFIDENCE = 0.3;
/** A fuzzy match never reaches the confidence of an exact identifier. */
const MAX_FUZZY_CONFIDENCE = 0.99;
/** How many search candidates are scored by similarity. */
const CANDIDATES = 25;

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The `ids` that identify one entity (an exchange or a funding asset does not). */
const IDENTIFYING = new Set(['ticker', 'symbol', 'isin', 'cusip', 'coingecko', 'binance', 'fx', 'yahoo', 'fred']);

/** Everything that identifies an entity exactly, with its label. */
function exactKeys(e: Entity): [string, string][] {
  const keys: [string, string][] = [[e.id, 'id']];
  for (const [kind, value] of Object.entries(e.ids)) {
    if (!IDENTIFYING.has(kind)) continue;
    keys.push([value, kind]);
    if (kind === 'fx') keys.push([value.replace(':', '/'), kind], [value.replace(':', ''), kind]);
  }
  for (const [chain, address] of Object.entries(e.contracts ?? {})) keys.push([address, `contract:${chain}`]);
  return keys;
}

/** 1 − Levenshtein distance / length of the longer string, case-insensitive; capped below an exact identifier. */
export function fuzzyConfidence(query: string, text: string): number {
  const a = norm(query);
  const b = norm(text);
  return Math.min(MAX_FUZZY_CONFIDENCE, 1 - distance(a, b) / Math.max(a.length, b.length, 1));
}

/**
 * Resolves free text to entities: exact identifiers (id, ticker/symbol, ISIN, CUSIP, provider ids,
 * contract addresses — all case-insensitive) and exactly spelled names or aliases at confidence 1, then
 * other names and aliases below 1: MiniSearch
 * (fuzzy, prefix) finds candidates fast and an edit-distance similarity ranks them. Indexes are
 * built once.
 */
export class EntityResolver {
  private readonly byId = new Map<string, Entity>();
  private readonly exact = new Map<string, { entity: Entity; on: string }[]>();
  /** Normalized names and aliases: a query that spells one exactly skips the fuzzy search. */
  private readonly names = new Map<string, { entity: Entity; on: 'name' | 'alias' }[]>();
  private readonly search = new MiniSearch<{ id: string; name: string; aliases: string }>({
    fields: ['name', 'aliases'],
    // Edit distance only for longer terms and prefixes only from three letters: short terms fan out too far.
    searchOptions: { fuzzy: (term) => (term.length > 3 ? 0.25 : false), prefix: (term) => term.length > 2, boost: { name: 2 } },
  });

  constructor(readonly entities: Entity[]) {
    for (const entity of entities) {
      this.byId.set(entity.id, entity);
      for (const [key, on] of exactKeys(entity)) {
        const list = this.exact.get(norm(key)) ?? [];
        if (!list.some((m) => m.entity === entity)) list.push({ entity, on });
        this.exact.set(norm(key), list);
      }
    }
    for (const entity of entities) {
      for (const [text, on] of [[entity.name, 'name'] as const, ...entity.aliases.map((a) => [a, 'alias'] as const)]) {
        const list = this.names.get(norm(text)) ?? [];
        if (!list.some((m) => m.entity === entity)) list.push({ entity, on });
        this.names.set(norm(text), list);
      }
    }
    this.search.addAll(entities.map((e) => ({ id: e.id, name: e.name, aliases: e.aliases.join(' | ') })));
  }

  get(id: string): Entity | undefined {
    return this.byId.get(id);
  }

  resolve(q: string, limit: number): Resolution {
    const exact = (this.exact.get(norm(q)) ?? []).map(({ entity, on }) => this.match(entity, 1, on));
    const seen = new Set(exact.map((m) => m.id));
    const spelled = (this.names.get(norm(q)) ?? []).filter((m) => !seen.has(m.entity.id));
    // A name or alias spelled exactly (case and spacing aside) is an exact match: confidence 1.
    const fuzzy = spelled.length
      ? spelled.map(({ entity, on }) => this.match(entity, 1, on))
      : this.search
          .search(q)
          .slice(0, CANDIDATES)
          .map((hit) => hit.id as string)
          .filter((id) => !seen.has(id))
          .map((id) => this.bestName(this.byId.get(id)!, q))
          .filter((m) => m.confidence >= MIN_CONFIDENCE);
    const matches = [...exact, ...fuzzy.sort((a, b) => b.confidence - a.confidence)].slice(0, limit);
    const [first, second] = matches;
    const ambiguous = Boolean(first && second && first.confidence - second.confidence < AMBIGUITY_MARGIN);
    return { matches, ambiguous };
  }

  list(filter: { type?: EntityType; category?: string; limit: number; offset: number }): { total: number; entities: Entity[] } {
    const all = this.entities.filter(
      (e) => (!filter.type || e.type === filter.type) && (!filter.category || e.category === filter.category),
    );
    return { total: all.length, entities: all.slice(filter.offset, filter.offset + filter.limit) };
  }

  /** The entity's name or alias most similar to the query, as a match. */
  private bestName(entity: Entity, q: string): Match {
    const scored = [[entity.name, 'name'] as const, ...entity.aliases.map((a) => [a, 'alias'] as const)].map(([text, on]) => ({
      on,
      confidence: fuzzyConfidence(q, text),
    }));
    const best = scored.reduce((a, b) => (b.confidence > a.confidence ? b : a));
    return this.match(entity, best.confidence, best.on);
  }

  private match(entity: Entity, confidence: number, on: string): Match {
    return { id: entity.id, name: entity.name, type: entity.type, confidence: roundTo(confidence, 4), matched_on: on };
  }
}
