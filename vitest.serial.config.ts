import { defineConfig } from 'vitest/config';
import shared, { SERIAL_FILES } from './vitest.config.js';

/**
 * The second half of `npm test`: the files that start services and time them, two at a time (the worker restarts, the
 * longest, start first: vitest.sequencer.ts), beside lint. They mostly wait on the services they start and kill: one at
 * a time they took 125–148 s, two at a time 75–84 s, every one passing (three runs, lint beside them, 6 December 2026).
 */
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: SERIAL_FILES, exclude: ['**/node_modules/**'], maxWorkers: 2 },
});
