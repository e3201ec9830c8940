import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONG_FILES } from '../../vitest.sequencer.js';

/** vitest.sequencer.ts starts LONG_FILES first (in either part); a name that went stale would quietly start last again. */
describe('the files each part starts first', () => {
  it('exist', () => {
    const stale = LONG_FILES.filter((file) => !existsSync(file));
    expect(stale, 'rename them in vitest.sequencer.ts or take them off the list').toEqual([]);
  });
});
