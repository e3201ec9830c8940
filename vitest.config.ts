import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './vitest.sequencer.js';

/**
 * Files that start whole services as child processes and measure them against the clock (kill -9 under load, a
 * rolling restart, start-up deadlines): they run after the rest, two at a time beside lint (vitest.serial.config.ts),
 * because sharing two cores with three other files and the first part's load turns their timing into flakes. Files
 * that time nothing (start-up exit codes, the cluster checks and the full disk in process, the unhandled-rejection
 * guard) run with the rest.
 */
export const SERIAL_FILES = [
  'test/lifecycle/rolling-restart.test.ts',
  'test/lifecycle/worker-restarts.test.ts',
  'test/lifecycle/workers.test.ts',
  'test/payments/idempotency-crash.test.ts',
  'test/demo/demo.test.ts',
  'test/security/shutdown.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SERIAL_FILES],
    setupFiles: ['test/setup/fast-check.ts'],
    // The entry points that tests start as child processes, transpiled once per run (test/helpers/entry.ts).
    globalSetup: ['test/setup/compiled-sources.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker runs file after file in one module graph instead of a fresh one per file: importing the service costs
    // about 3 s of CPU (the whole app, its SDKs and schemas), which 230 files paid once each. Safe because nothing in
    // src/ or test/ keeps state at module level that a later file could see (every app, store and simulator is made
    // per file) and no test mocks a module or stubs a global (test/core/suite-isolation.test.ts keeps it so).
    isolate: false,
    // Suites that share Postgres/Redis use unique table prefixes / key namespaces, so files may run in parallel.
    // Most files spend their time waiting on sockets, child processes and deadlines, not on a core: vitest's default
    // of one worker fewer than the cores would run them one at a time on a 2-core machine. Four at least overlap the
    // waits (CONTRIBUTING.md has the measured time).
    maxWorkers: Math.max(4, availableParallelism()),
    // The longest files start first, cache or no cache (vitest.sequencer.ts).
    sequence: { sequencer: LongFilesFirst },
    // `npm run coverage`: what the suite executes of src/, a summary on the terminal and a browsable report in coverage/.
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary', 'html'] },
  },
});
