import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * The node arguments that run one of the repository's entry points (`src/main.ts`, `src/mcp/stdio.ts`,
 * `packages/client/src/cli.ts`, …) as a child process: its transpiled copy from the suite's global setup
 * (test/setup/compiled-sources.ts), which starts in about half the CPU of compiling it under tsx each time.
 */
export function entryArgs(source: string): string[] {
  return [compiledPath(source)];
}

/** Where the suite's transpiled copy of a source file is (`src/x.ts` → `<copy>/src/x.js`). */
export function compiledPath(source: string): string {
  return join(inject('compiledSources'), source.replace(/\.ts$/, '.js'));
}
