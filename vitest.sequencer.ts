import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The first part's longest files, longest first, with their seconds in the first part's runs of 6 December 2026 (load
 * up to 8). Vitest orders files by their last durations when it has them (its results cache under
 * node_modules/.vite/vitest/); a clean clone (CI) has none and goes by file size, which started the conformance check
 * late and left its wait as the run's tail. Starting these first lets the hundreds of short files fill the workers around
 * them.
 */
export const LONG_FILES = [
  'test/security/fuzz-routes.test.ts', // 65: fast-check over every route, on SQLite and Postgres
  'test/client/conformance.test.ts', // 100+ then; 55 alone now: a demo started, then its 429s waited out
  'test/sources/contract.test.ts', // 49: every data type against every fault
  'test/client/cli.test.ts', // 44: the CLI spawned through tsx
  'test/discovery/docs-examples.test.ts', // 40: every README and docs example run
  'test/lifecycle/startup-errors.test.ts', // 39: the service spawned with each broken configuration
  'test/demo/start-up.test.ts', // 37: demo start-ups
  'test/discovery/pages.browser.test.ts', // 34: Chromium
];

/** Vitest's order, except that LONG_FILES start first, in their order. */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.indexOf(relative(file.project.config.root, file.moduleId));
      return at === -1 ? LONG_FILES.length : at;
    };
    // Array.prototype.sort is stable: the other files keep the order vitest gave them.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
