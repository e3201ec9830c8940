import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * Arrows point down, checked on every value-level import of src/ (`import type` is erased at build time and may point
 * anywhere). Each rule fails naming the file and the import that breaks it. Issue 38 item 2.
 */
const SRC = resolve(import.meta.dirname, '../../src');
/** The layers below the features (docs/architecture.md, "Folders"): they import nothing but each other and the configuration. */
const LOWER_LAYERS = ['core', 'store', 'cache', 'bus', 'upstream', 'models', 'scheduler', 'lifecycle'];
/** Fastify plugins: the lower layers and themselves, never a feature. */
const PLUGINS = 'plugins';
const ENTRY_POINTS = ['main.ts', 'mcp/stdio.ts', 'status/doctor-cli.ts', 'arena/backfill.ts', 'olympics/backfill.ts'];
const isConfig = (path: string) => /^config[^/]*\.ts$/.test(path);
const folderOf = (path: string) => path.split('/')[0]!;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** `import { type A, type B } from` names types only, as `import type` does. */
const onlyTypes = (names: string) =>
  /^\{[^}]*\}$/.test(names) &&
  names
    .slice(1, -1)
    .split(',')
    .every((n) => /^\s*(type\s|$)/.test(n));

/** Every relative value import of a file (static, re-export, side-effect or dynamic), as a path under src/. */
function valueImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statics = [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*'(\.{1,2}\/[^']+)'/gms)]
    .filter(([, typeOnly, names]) => !typeOnly && !onlyTypes(names!.trim()))
    .map((m) => m[3]!);
  const others = [...text.matchAll(/(?:^import\s+|\bimport\(\s*)'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]!);
  return [...statics, ...others].map((specifier) => relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

const graph = new Map(sourceFiles(SRC).map((file) => [relative(SRC, file), valueImportsOf(file)]));
const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to, name: `${from} → ${to}` })));

/** A cycle through `start`, as the chain of imports, or undefined. */
function cycleThrough(start: string): string[] | undefined {
  const path: string[] = [];
  const seen = new Set<string>();
  const walk = (node: string): boolean => {
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (next === start) return (path.push(next), true);
      if (!seen.has(next) && graph.has(next) && (seen.add(next), walk(next))) return true;
    }
    path.pop();
    return false;
  };
  return walk(start) ? path : undefined;
}

/** The modules a file loads, transitively. */
function reachableFrom(start: string): Set<string> {
  const reached = new Set<string>([start]);
  for (const node of reached) for (const next of graph.get(node) ?? []) reached.add(next);
  return reached;
}

const rules: { rule: string; broken: (e: { from: string; to: string }) => boolean }[] = [
  {
    rule: 'the layers below the features import only each other and the configuration',
    broken: ({ from, to }) => LOWER_LAYERS.includes(folderOf(from)) && !LOWER_LAYERS.includes(folderOf(to)) && !isConfig(to),
  },
  {
    rule: 'plugins import only the lower layers, other plugins and the configuration',
    broken: ({ from, to }) => folderOf(from) === PLUGINS && ![...LOWER_LAYERS, PLUGINS].includes(folderOf(to)) && !isConfig(to),
  },
  {
    rule: 'only the entry points and demo/ itself import demo/',
    broken: ({ from, to }) => folderOf(to) === 'demo' && folderOf(from) !== 'demo' && !ENTRY_POINTS.includes(from),
  },
  {
    rule: 'only the entry points import app.ts',
    broken: ({ from, to }) => to === 'app.ts' && !ENTRY_POINTS.includes(from),
  },
];

it.each(rules)('$rule', ({ broken }) => {
  expect(edges.filter(broken).map((e) => e.name)).toEqual([]);
});

it('the configuration modules load, transitively, only the lower layers and each other', () => {
  const allowed = (path: string) => LOWER_LAYERS.includes(folderOf(path)) || isConfig(path);
  const configs = [...graph.keys()].filter(isConfig);
  const within = new Set(configs.flatMap((config) => [...reachableFrom(config)]));
  const leaving = edges.filter((e) => within.has(e.from) && allowed(e.from) && !allowed(e.to));
  expect(leaving.map((e) => e.name)).toEqual([]);
});

it('no value-level import cycle anywhere in src/', () => {
  const cycles = [...graph.keys()].map(cycleThrough).filter((cycle) => cycle !== undefined);
  expect(cycles.map((cycle) => cycle.join(' → '))).toEqual([]);
});
