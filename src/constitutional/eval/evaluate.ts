import { readFileSync } from 'node:fs';
import { classifyRules } from '../rules.js';
import type { Direction } from '../pattern-types.js';

export interface EvalItem {
  id: string;
  text: string;
  direction: Direction;
  label: 'harmful' | 'benign';
  category: string;
  patterns: string[];
  split: 'dev' | 'test';
}

export interface EvalSet {
  /** Who wrote the set, when and where it lives: it has no outside source. */
  origin: { publisher: string; written: string; where: string; method: string };
  provenance: string;
  labelling_rule: string;
  items: EvalItem[];
}

/** The documented floors the evaluation test enforces. */
export const FLOORS = { balanced_accuracy: 0.9, benign_false_positive_rate: 0.05 } as const;

export const loadEvalSet = (): EvalSet => JSON.parse(readFileSync(new URL('./eval-set.v1.json', import.meta.url), 'utf8')) as EvalSet;

/** A text counts as detected when the rule stage does not allow it (flag or block). */
export const detected = (text: string, direction: Direction) => classifyRules(text, direction).verdict !== 'allow';

export interface EvalReport {
  items: number;
  harmful: number;
  benign: number;
  true_positive_rate: number;
  benign_false_positive_rate: number;
  balanced_accuracy: number;
  per_pattern_recall: Record<string, { expected: number; recall: number }>;
  misses: string[];
  false_positives: string[];
}

const ratio = (n: number, d: number) => (d ? Math.round((n / d) * 1e4) / 1e4 : 0);

/** Balanced accuracy, benign false-positive rate and per-pattern recall of the rule stage. */
export function evaluate(items: EvalItem[]): EvalReport {
  const harmful = items.filter((i) => i.label === 'harmful');
  const benign = items.filter((i) => i.label === 'benign');
  const misses: string[] = [];
  const perPattern = new Map<string, { expected: number; found: number }>();
  for (const item of harmful) {
    const result = classifyRules(item.text, item.direction);
    if (result.verdict === 'allow') misses.push(item.id);
    const found = new Set(result.patterns.map((p) => p.id));
    for (const id of item.patterns) {
      const entry = perPattern.get(id) ?? { expected: 0, found: 0 };
      entry.expected++;
      if (found.has(id)) entry.found++;
      perPattern.set(id, entry);
    }
  }
  const falsePositives = benign.filter((i) => detected(i.text, i.direction)).map((i) => i.id);
  const tpr = ratio(harmful.length - misses.length, harmful.length);
  const fpr = ratio(falsePositives.length, benign.length);
  return {
    items: items.length,
    harmful: harmful.length,
    benign: benign.length,
    true_positive_rate: tpr,
    benign_false_positive_rate: fpr,
    balanced_accuracy: Math.round(((tpr + 1 - fpr) / 2) * 1e4) / 1e4,
    per_pattern_recall: Object.fromEntries(
      [...perPattern].sort().map(([id, e]) => [id, { expected: e.expected, recall: ratio(e.found, e.expected) }]),
    ),
    misses,
    false_positives: falsePositives,
  };
}
