import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each part's longest files, longest first, with their seconds in the runs of 6 December 2026 (12:00 UTC, quiet
 * machine). Vitest orders files by their last durations when it has them (its results cache under
 * node_modules/.vite/vitest/); a clean clone (CI) has none and goes by file size, which started the conformance check
 * late and left its wait as the run's tail. Starting these first lets the hundreds of short files fill the workers around
 * them.
 */
export const LONG_FILES = [
  // The serial part (vitest.serial.config.ts), two at a time: the longest first, the rest share the other worker.
  'test/lifecycle/worker-restarts.test.ts', // 51-64: SVC_WORKERS=2 through database faults and kill -9
  'test/lifecycle/rolling-restart.test.ts', // 28-38: two instances behind nginx, restarted under load
  // The first part.
  'test/client/conformance.test.ts', // 60-64: a demo started, then its 429s waited out (mostly waiting)
  'test/sources/contract.test.ts', // 49-53: every data type against every fault
  'test/security/fuzz-routes.test.ts', // 36-39: fast-check over every route, on SQLite and Postgres (the most CPU)
  'test/demo/start-up.test.ts', // 32-40: demo start-ups
  'test/discovery/docs-examples.test.ts', // 28-30: every README and docs example run
  'test/discovery/pages.browser.test.ts', // 26-29: Chromium
  'test/security/database-outage.test.ts', // 23-27: Postgres and Redis faults, waited out
  'test/client/cli.test.ts', // 20-24: the CLI spawned
  'test/tlog/end-to-end.test.ts', // 20-22: the log, its witnesses and the Go verifier
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
