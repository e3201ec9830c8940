import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that start whole services as child processes and measure them against the clock (kill -9 under load, a
 * rolling restart, start-up deadlines): they run after the rest, one at a time (vitest.serial.config.ts), because
 * sharing two cores with three other files turns their timing into flakes.
 */
export const SERIAL_FILES = [
  'test/lifecycle/**/*.test.ts',
  'test/payments/idempotency-crash.test.ts',
  'test/demo/demo.test.ts',
  'test/store/full-disk.test.ts',
  'test/security/shutdown.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SERIAL_FILES],
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Suites that share Postgres/Redis use unique table prefixes / key namespaces, so files may run in parallel.
    // Most files spend their time waiting on sockets, child processes and deadlines, not on a core: vitest's default
    // of one worker fewer than the cores would run them one at a time on a 2-core machine. Four at least overlap the
    // waits (CONTRIBUTING.md has the measured time).
    maxWorkers: Math.max(4, availableParallelism()),
    // `npm run coverage`: what the suite executes of src/, a summary on the terminal and a browsable report in coverage/.
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary', 'html'] },
  },
});
