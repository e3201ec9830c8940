import type { Layer, LayerKind, Signals } from './normalize.js';

export type Direction = 'input' | 'output';

/** A gap of up to n characters within one sentence. */
export const gap = (n: number) => `[^.\\n]{0,${n}}`;
/** A case-insensitive rule regex from source text (split across lines with +). */
export const re = (source: string, flags = 'i') => new RegExp(source, flags);

/** One regex of a pattern with the score a match of it earns. */
export interface Rule {
  re: RegExp;
  w: number;
}

/** Where context-free evidence comes from: the classified text's layers, signals and caller context. */
export interface EvidenceInput {
  layers: Layer[];
  signals: Signals;
  context: ClassifyContext;
  /** Ids of the regex patterns that matched, by layer index. */
  matchedByLayer: Set<string>[];
}

export interface Evidence {
  score: number;
  spans: Span[];
}

export interface Span {
  /** Index into normalized_layers. */
  layer: number;
  start: number;
  end: number;
  text: string;
}

export interface ClassifyContext {
  /** Where the text came from; fetched content (tool, web, document, email) makes injections there likelier. */
  source?: 'user' | 'tool' | 'web' | 'document' | 'email';
  /** The system prompt the output must not reveal (compared by 8-word shingles, never stored). */
  system_prompt?: string;
  /** Secrets the output must not contain (never stored). */
  secrets?: string[];
}

export interface PatternDef {
  id: string;
  name: string;
  direction: Direction;
  description: string;
  examples: string[];
  rules?: Rule[];
  /** Evidence that is not one regex: obfuscation signals, context, counts. Runs after every rules pattern. */
  evidence?: (input: EvidenceInput) => Evidence | undefined;
  /**
   * Talking about it is common (security questions, news quoting an attack): a match inside quotes or
   * code, in a text that reports or explains, scores DAMPEN times less. Harmful-capability and leak
   * patterns are never dampened.
   */
  talkable?: boolean;
}

/** The indexes of layers of these kinds. */
export const layersOf = (layers: Layer[], kinds: LayerKind[]) => layers.flatMap((l, i) => (kinds.includes(l.kind) ? [i] : []));

/** Whether an injection/attack pattern (not an obfuscation one) matched in a layer. */
const ATTACK_PREFIX = 'in.';
export const attackMatched = (ids: Set<string> | undefined) =>
  [...(ids ?? [])].some((id) => id.startsWith(ATTACK_PREFIX) && !id.startsWith('in.obfuscation'));

/** Whole-layer span for evidence that is about a decoded layer as a whole. */
export const wholeLayer = (layers: Layer[], index: number): Span => ({
  layer: index,
  start: 0,
  end: layers[index]!.text.length,
  text: layers[index]!.text.slice(0, 200),
});
