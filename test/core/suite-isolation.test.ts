import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * vitest.config.ts runs every worker's files in one module graph (`isolate: false`): a module mocked or a global stubbed
 * by one file would still be there, or already loaded unmocked, for the next. Observe through the app instead (a log
 * line, a metric, an injected dependency).
 */
const SHARED_GRAPH_BREAKERS = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(/;
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
