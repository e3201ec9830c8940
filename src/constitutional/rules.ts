import { normalize, type Layer } from './normalize.js';
import { INPUT_PATTERNS } from './patterns-input.js';
import { AGENT_PATTERNS } from './patterns-agent.js';
import { OBFUSCATION_PATTERNS } from './patterns-obfuscation.js';
import { OUTPUT_PATTERNS } from './patterns-output.js';
import type { ClassifyContext, Direction, EvidenceInput, PatternDef, Span } from './pattern-types.js';

/** The 30 documented patterns, in the order GET /patterns lists them. */
export const PATTERNS: PatternDef[] = [...INPUT_PATTERNS, ...AGENT_PATTERNS, ...OBFUSCATION_PATTERNS, ...OUTPUT_PATTERNS];

/** p_harmful at or above `flag` is flagged, at or above `block` blocked. */
export const THRESHOLDS = { flag: 0.5, block: 0.8 } as const;
/** A talkable pattern matched inside quotes or a question, in a text that reports or explains, counts this much. */
export const DAMPEN = 0.35;
const MAX_SPANS = 5;

export type Verdict = 'allow' | 'flag' | 'block';
export interface PatternHit {
  id: string;
  score: number;
  spans: Span[];
}
export interface RuleResult {
  verdict: Verdict;
  p_harmful: number;
  patterns: PatternHit[];
  normalized_layers: Layer[];
}

/** A text that reports, teaches or explains rather than asks. */
const REPORTING = new RegExp(
  '\\b(researchers?|reported|reports?|article|study|paper|journalists?|news|according to|headline|an? (example|sample) of|known as|' +
    'such as|the phrase|phishing (e-?mails?|messages?)|attackers?|security (team|training|awareness)|what (is|are|does)|explain|' +
    'how (do|can|should) (i|we) (detect|defend|protect|prevent|block|filter|stop|recogni[sz]e)|classifier|detection|filter(ing)?|' +
    'in (a|our) (talk|course|slide))\\b',
  'i',
);
const QUOTED = /"[^"\n]{2,400}"|“[^”\n]{2,400}”|'[^'\n]{6,400}'|`[^`\n]{2,400}`|```[\s\S]*?```|«[^»\n]{2,400}»/g;
/** Asking the model to act on the quoted text is using it, not discussing it. */
const DIRECTIVE = new RegExp(
  '\\b(do the same( thing)?|do (it|this|that) (now|too)|follow (it|them|that|the instructions?)|now (do|say|answer) (it|that|this)|' +
    'do what it says)\\b',
  'i',
);
const QUESTION = /^\s*(what|how|why|is|are|can|could|does|do|should|explain|define|which)\b[\s\S]{0,400}\?\s*$/i;

const globalOf = new Map(
  PATTERNS.flatMap((p) => p.rules ?? []).map((r) => [
    r.re,
    new RegExp(r.re.source, r.re.flags.includes('g') ? r.re.flags : `${r.re.flags}g`),
  ]),
);

/** Noisy-or: the chance that at least one independent piece of evidence is right. */
export const noisyOr = (scores: number[]) => 1 - scores.reduce((rest, s) => rest * (1 - s), 1);
const round = (p: number) => Math.round(p * 1e4) / 1e4;

function quotedRanges(text: string): [number, number][] {
  return [...text.matchAll(QUOTED)].map((m) => [m.index, m.index + m[0].length]);
}

/** Whether a talkable match is being discussed rather than used: reported or explained, and quoted or asked about. */
function discussed(layer: Layer, spans: Span[], direction: Direction, quotes: () => [number, number][]): boolean {
  const inside = (ranges: [number, number][]) => spans.every((s) => ranges.some(([a, b]) => s.start >= a && s.end <= b));
  // An answer's fenced code block is shown, not rendered (a model reading input may still obey one).
  if (direction === 'output' && inside(quotes().filter(([a]) => layer.text.startsWith('```', a)))) return true;
  if (!REPORTING.test(layer.text) || DIRECTIVE.test(layer.text)) return false;
  if (QUESTION.test(layer.text)) return true;
  return inside(quotes());
}

function ruleScores(
  pattern: PatternDef,
  layers: Layer[],
  matchedByLayer: Set<string>[],
  direction: Direction,
  quotes: (i: number) => [number, number][],
) {
  const scores: number[] = [];
  const spans: Span[] = [];
  for (const rule of pattern.rules ?? []) {
    let best = 0;
    layers.forEach((layer, i) => {
      // The original is scanned only when normalization changed it; otherwise layer 1 speaks for both.
      if (i === 0 && layer.text === layers[1]!.text) return;
      const found = spansIn(globalOf.get(rule.re)!, layer, i);
      if (!found.length) return;
      const w = pattern.talkable && discussed(layer, found, direction, () => quotes(i)) ? rule.w * DAMPEN : rule.w;
      if (w >= 0.4) matchedByLayer[i]!.add(pattern.id);
      if (w > best) best = w;
      if (spans.length < MAX_SPANS) spans.push(...found.slice(0, MAX_SPANS - spans.length));
    });
    if (best > 0) scores.push(best);
  }
  return { scores, spans };
}

function spansIn(re: RegExp, layer: Layer, index: number): Span[] {
  const spans: Span[] = [];
  re.lastIndex = 0;
  for (const m of layer.text.matchAll(re)) {
    spans.push({ layer: index, start: m.index, end: m.index + m[0].length, text: m[0].slice(0, 200) });
    if (spans.length >= MAX_SPANS) break;
  }
  return spans;
}

export const verdictOf = (p: number): Verdict => (p >= THRESHOLDS.block ? 'block' : p >= THRESHOLDS.flag ? 'flag' : 'allow');

/** The rule stage: normalize, run every pattern of the direction on every layer, combine by noisy-or. */
export function classifyRules(text: string, direction: Direction, context: ClassifyContext = {}): RuleResult {
  const { layers, signals } = normalize(text);
  const matchedByLayer = layers.map(() => new Set<string>());
  const patterns = PATTERNS.filter((p) => p.direction === direction);
  const quoted: [number, number][][] = [];
  const quotes = (i: number) => (quoted[i] ??= quotedRanges(layers[i]!.text));
  const byRules = new Map(patterns.map((p) => [p.id, ruleScores(p, layers, matchedByLayer, direction, quotes)]));
  if (layers[0]!.text === layers[1]!.text) matchedByLayer[0] = matchedByLayer[1]!;
  const input: EvidenceInput = { layers, signals, context, matchedByLayer };
  const hits: PatternHit[] = [];
  for (const pattern of patterns) {
    const { scores, spans } = byRules.get(pattern.id)!;
    const evidence = pattern.evidence?.(input);
    const boost = pattern.id === 'in.indirect_injection' && scores.length && context.source && context.source !== 'user' ? [0.6] : [];
    const all = [...scores, ...boost, ...(evidence ? [evidence.score] : [])];
    if (all.length)
      hits.push({ id: pattern.id, score: round(noisyOr(all)), spans: [...(evidence?.spans ?? []), ...spans].slice(0, MAX_SPANS) });
  }
  hits.sort((a, b) => b.score - a.score);
  const p = round(noisyOr(hits.map((h) => h.score)));
  return { verdict: verdictOf(p), p_harmful: p, patterns: hits, normalized_layers: layers };
}
