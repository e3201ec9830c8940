/** 10,000 random in-process resolutions (tickers, ISINs, names with typos): p50/p99 in ms (target p99 < 1 ms). */
import { loadDataset } from '../src/entities/dataset.js';
import { EntityResolver } from '../src/entities/resolver.js';
import { percentile, round } from './lib.js';

export function entityResolve() {
  const entities = loadDataset().entities;
  const resolver = new EntityResolver(entities);
  const typo = (s: string) => (s.length > 4 ? s.slice(0, 2) + s.slice(3) : s);
  const queries = entities.flatMap((e) => [e.ids.symbol ?? e.name, e.ids.isin ?? e.name, e.name, typo(e.name.toLowerCase())]);
  let seed = 1;
  const pick = () => queries[(seed = (seed * 48271) % 2147483647) % queries.length]!;
  for (let i = 0; i < 1000; i++) resolver.resolve(pick(), 5); // warm-up
  const times: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    const q = pick();
    const start = process.hrtime.bigint();
    resolver.resolve(q, 5);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const ms = (p: number) => round(percentile(times, p), 4);
  return {
    calls: times.length,
    entities: entities.length,
    p50_ms: ms(50),
    p99_ms: ms(99),
    max_ms: round(times.at(-1)!, 4),
    target_p99_ms: 1,
  };
}
