import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * Audit finding 10: arrows point down only. The layers below the features (core, store, cache, bus,
 * upstream) never import a feature folder, and no module but the entry points imports app.ts.
 */
const SRC = resolve(import.meta.dirname, '../../src');
const LOWER_LAYERS = ['core', 'store', 'cache', 'bus', 'upstream'];
/** Top-level modules every layer may read: the configuration. */
const SHARED_TOP_LEVEL = ['config.ts', 'config-env.ts'];
const ENTRY_POINTS = ['main.ts', 'mcp/stdio.ts', 'arena/backfill.ts', 'olympics/backfill.ts'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** Every relative import of a file, as a path under src/ (`.js` specifiers name the `.ts` source). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    relative(SRC, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'),
  );
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), imports: importsOf(file) }));

it('core, store, cache, bus and upstream import nothing but each other and the configuration', () => {
  const upward = files
    .filter((f) => LOWER_LAYERS.includes(f.path.split('/')[0]!))
    .flatMap((f) =>
      f.imports
        .filter((target) => !LOWER_LAYERS.includes(target.split('/')[0]!) && !SHARED_TOP_LEVEL.includes(target))
        .map((target) => `${f.path} → ${target}`),
    );
  expect(upward).toEqual([]);
});

it('no module imports app.ts except the entry points', () => {
  const intoApp = files.filter((f) => !ENTRY_POINTS.includes(f.path) && f.imports.includes('app.ts')).map((f) => f.path);
  expect(intoApp).toEqual([]);
});
