import { evaluate, loadEvalSet } from './src/constitutional/eval/evaluate.ts';
const set = loadEvalSet();
const byId = new Map(set.items.map((i) => [i.id, i]));
for (const split of ['dev', 'test']) {
  const r = evaluate(set.items.filter((i) => i.split === split));
  console.log(split, JSON.stringify({ ...r, misses: undefined, false_positives: undefined }));
  if (split === 'dev' || process.argv[2]) { for (const id of r.misses) console.log('MISS', id, JSON.stringify(byId.get(id)!.text.slice(0, 110))); for (const id of r.false_positives) console.log('FP', id, JSON.stringify(byId.get(id)!.text.slice(0, 110))); }
}
