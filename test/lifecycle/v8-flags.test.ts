import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { compiledPath } from '../helpers/entry.js';

/**
 * A literal whose objects all survive while the young generation is at its largest is tenured by V8 (its objects are
 * then allocated in the old generation): what made every request's objects old in the server as shipped. Run in a
 * process of its own, with V8 tracing its decisions, once as Node's default and once with the server's first import.
 */
const training = `
  function make(i) { return [i, i + 1, i + 2]; }
  function fill(list, n) { for (let i = 0; i < n; i++) list.push(make(i)); return list; }
  for (let round = 0; round < 20; round++) fill([], 200_000);
`;

const tenureDecisions = async (imports: string) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    // The young generation capped small is at its largest from the first scavenges, the state V8 tenures sites in: left
    // to grow, it may not get there within the training on a loaded machine, and the baseline then sees no decision.
    ['--max-semi-space-size=1', '--trace-pretenuring-statistics', '--input-type=module', '-e', imports + training],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.split('\n').filter((line) => line.includes('=> tenure')).length;
};

it('no allocation site is tenured in the server process', async () => {
  expect(await tenureDecisions('')).toBeGreaterThan(0); // the training does tenure by default
  expect(await tenureDecisions(`import '${pathToFileURL(compiledPath('src/lifecycle/v8-flags.ts')).href}';`)).toBe(0);
}, 60_000);

it('main.ts sets the flag before any other module of the server is evaluated', () => {
  const imports = readFileSync('src/main.ts', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('import '));
  expect(imports[0]).toBe(`import './lifecycle/v8-flags.js';`);
});
