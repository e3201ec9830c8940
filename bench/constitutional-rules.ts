/**
 * The constitutional rule stage on 4 KB inputs (eval-set texts concatenated, a third of them base64-wrapped);
 * prints p50/p99 in ms of wall clock and CPU time (target p99 < 20 ms).
 */
import { loadEvalSet } from '../src/constitutional/eval/evaluate.js';
import { classifyRules } from '../src/constitutional/rules.js';

const SIZE = 4096;
const texts = loadEvalSet().items;
let seed = 7;
const next = () => (seed = (seed * 48271) % 2147483647);

/** One 4 KB input: random eval texts until the size is reached, some of them base64-encoded. */
function input(): { text: string; direction: 'input' | 'output' } {
  const direction = next() % 4 === 0 ? 'output' : 'input';
  let text = '';
  while (Buffer.byteLength(text) < SIZE) {
    const item = texts[next() % texts.length]!;
    text += `${next() % 3 === 0 ? Buffer.from(item.text).toString('base64') : item.text}\n`;
  }
  return {
    text: Buffer.from(text)
      .subarray(0, SIZE)
      .toString('utf8')
      .replace(/\ufffd$/, ''),
    direction,
  };
}

export function constitutionalRules() {
  const inputs = Array.from({ length: 500 }, input);
  for (const i of inputs.slice(0, 100)) classifyRules(i.text, i.direction); // warm-up

  // Wall-clock time, and this process's CPU time per call: on a shared machine the second is what the code costs.
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 4; round++) {
    for (const i of inputs) {
      const start = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      classifyRules(i.text, i.direction);
      const used = process.cpuUsage(cpuStart);
      wall.push(Number(process.hrtime.bigint() - start) / 1e6);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  const at = (times: number[], p: number) => Number([...times].sort((a, b) => a - b)[Math.floor((times.length - 1) * p)]!.toFixed(3));
  const figures = (times: number[]) => ({ p50_ms: at(times, 0.5), p99_ms: at(times, 0.99), max_ms: at(times, 1) });
  return { calls: wall.length, input_bytes: SIZE, wall: figures(wall), cpu: figures(cpu), target_p99_ms: 20 };
}
