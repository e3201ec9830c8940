import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
