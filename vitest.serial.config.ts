import { defineConfig } from 'vitest/config';
import shared, { SERIAL_FILES } from './vitest.config.js';

/** The second half of `npm test`: the files that start services and time them, one file at a time. */
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: SERIAL_FILES, exclude: ['**/node_modules/**'], fileParallelism: false, maxWorkers: 1 },
});
