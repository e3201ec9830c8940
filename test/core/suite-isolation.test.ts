import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * vitest.config.ts runs every worker's files in one module graph (`isolate: false`): a module mocked or a global stubbed
 * by one file would still be there, or already loaded unmocked, for the next. Observe through the app instead (a log
 * line, a metric, an injected dependency).
 */
const SHARED_GRAPH_BREAKERS = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(/;
/**
 * An entry point of the sources started as a child process under tsx, which compiles the whole service again in every
 * such process: test/helpers/entry.ts starts the copy transpiled once per run instead.
 */
const ENTRY_UNDER_TSX = /'tsx',\s*'(src|packages)\/|tsx\/dist\/cli\.mjs/;
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });

describe('the suite shares one module graph per worker', () => {
  it('so no test file mocks a module or stubs a global', () => {
    const offenders = testFiles('test').filter((file) => SHARED_GRAPH_BREAKERS.test(readFileSync(file, 'utf8')));
    expect(offenders, 'these files change modules or globals that later files in the same worker would see').toEqual([]);
  });
});

describe('child processes', () => {
  it('start the transpiled entry points (entryArgs), not the sources under tsx', () => {
    const offenders = testFiles('test').filter((file) => ENTRY_UNDER_TSX.test(readFileSync(file, 'utf8')));
    expect(offenders, 'use entryArgs() from test/helpers/entry.ts').toEqual([]);
  });
});
