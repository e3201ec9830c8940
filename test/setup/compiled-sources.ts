/**
 * Vitest global setup: the service's and the client's sources transpiled once per run, for the tests that start them
 * as child processes (test/helpers/entry.ts). Under `--import tsx` every such process compiles the sources itself
 * before it listens: about 4–6 CPU-seconds each, against 2–2.5 for compiled code, and the suite starts several dozen.
 *
 * The transpiler is esbuild, file by file, which is what tsx itself runs on each module: the code that runs is the
 * code tsx would have run. The tree mirrors the checkout (src/, packages/client/src/, public/) inside node_modules/,
 * so imports resolve to the same packages and the sources' relative paths (curated files, fixtures, pages) still
 * hold; files that are not TypeScript are linked, not copied. In watch mode the tree is rebuilt before each rerun.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { transform } from 'esbuild';
import type { TestProject } from 'vitest/node';

const REPO = join(import.meta.dirname, '../..');
const TRANSPILED = ['src', 'packages/client/src'];
const LINKED = ['public'];
const TSCONFIG = readFileSync(join(REPO, 'tsconfig.json'), 'utf8');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the transpiled tree (src/main.ts is at `${compiledSources}/src/main.js`). */
    compiledSources: string;
  }
}

async function transpileFile(source: string, target: string): Promise<void> {
  const { code } = await transform(readFileSync(source, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcefile: source,
    tsconfigRaw: TSCONFIG,
  });
  writeFileSync(target.replace(/\.ts$/, '.js'), code);
}

/** Mirrors `folder` into `out`: TypeScript transpiled, declaration files skipped, anything else linked. */
function mirror(folder: string, out: string, pending: Promise<void>[]): void {
  mkdirSync(join(out, relative(REPO, folder)), { recursive: true });
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    const target = join(out, relative(REPO, path));
    if (entry.isDirectory()) mirror(path, out, pending);
    else if (entry.name.endsWith('.d.ts')) continue;
    else if (entry.name.endsWith('.ts')) pending.push(transpileFile(path, target));
    else symlinkSync(path, target);
  }
}

async function build(out: string): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  const pending: Promise<void>[] = [];
  for (const folder of TRANSPILED) mirror(join(REPO, folder), out, pending);
  for (const folder of LINKED) symlinkSync(join(REPO, folder), join(out, folder));
  await Promise.all(pending);
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cache = join(REPO, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, 'svc-compiled-'));
  await build(out);
  project.provide('compiledSources', out);
  project.onTestsRerun(() => build(out));
  return () => rmSync(out, { recursive: true, force: true });
}
