import { defineConfig } from 'vitest/config';

/** The operator's drill (`.ci/drill`): a long scenario on a real deployment and a balancer check, kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ['test/drill/**/*.drill.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
