import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERIAL_FILES } from '../../vitest.config.js';
import { LONG_FILES } from '../../vitest.sequencer.js';

/** vitest.sequencer.ts starts LONG_FILES first; a name that went stale would quietly start last again. */
describe('the files the first part starts first', () => {
  it('exist and run in the first part', () => {
    const stale = LONG_FILES.filter((file) => !existsSync(file) || SERIAL_FILES.includes(file));
    expect(stale, 'rename them in vitest.sequencer.ts or take them off the list').toEqual([]);
  });
});
