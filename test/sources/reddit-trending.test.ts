import { describe, expect, it } from 'vitest';
import trending from '../../src/sources/reddit-trending.js';

describe('reddit-trending q', () => {
  it('maps list labels to the site-wide listing, case-insensitively', () => {
    expect(['top', 'TOP', 'popular', 'all'].map((q) => trending.keyOf!(trending.parseQ(q)))).toEqual([
      'popular',
      'popular',
      'popular',
      'all',
    ]);
  });

  it('refuses other labels and lists the allowed ones', () => {
    for (const q of ['', 'best', 'r/all', 'hot-posts']) {
      expect(() => trending.parseQ(q), q).toThrow(
        expect.objectContaining({ code: 'invalid_q', details: expect.objectContaining({ allowed: ['top', 'popular', 'all'] }) }),
      );
    }
  });
});
