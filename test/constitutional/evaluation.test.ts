import { describe, expect, it } from 'vitest';
import { evaluate, loadEvalSet, FLOORS } from '../../src/constitutional/eval/evaluate.js';
import { PATTERNS } from '../../src/constitutional/rules.js';

/**
 * The rule stage against the labelled evaluation set written for this project (provenance in the
 * file). dev was used to tune rules; test is held out. Both must clear the documented floors.
 */
const set = loadEvalSet();

describe('evaluation set v1', () => {
  it('is balanced, large enough, states its provenance, and names only real patterns', () => {
    expect(set.items.length).toBeGreaterThanOrEqual(300);
    const harmful = set.items.filter((i) => i.label === 'harmful').length;
    expect(Math.abs(harmful / set.items.length - 0.5)).toBeLessThan(0.05);
    expect(set.provenance).toMatch(/Written for svc/);
    expect(set.labelling_rule).toMatch(/Labelled by rule/);
    const ids = new Set(PATTERNS.map((p) => p.id));
    for (const item of set.items) for (const id of item.patterns) expect(ids.has(id), `${item.id} ${id}`).toBe(true);
    expect(new Set(set.items.map((i) => i.id)).size).toBe(set.items.length);
  });

  it.each(['dev', 'test'] as const)('%s split: balanced accuracy and benign false positives within the floors', (split) => {
    const report = evaluate(set.items.filter((i) => i.split === split));
    console.info(JSON.stringify({ split, ...report }));
    expect(report.balanced_accuracy).toBeGreaterThanOrEqual(FLOORS.balanced_accuracy);
    expect(report.benign_false_positive_rate).toBeLessThanOrEqual(FLOORS.benign_false_positive_rate);
  });

  it('every pattern with expected items in the whole set is recalled at least once', () => {
    const report = evaluate(set.items);
    for (const [id, { recall }] of Object.entries(report.per_pattern_recall)) expect(recall, id).toBeGreaterThan(0);
    expect(Object.keys(report.per_pattern_recall).length).toBeGreaterThanOrEqual(28);
  });
});
