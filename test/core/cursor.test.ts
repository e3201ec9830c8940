import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CursorCodec } from '../../src/core/cursor.js';
import { ApiError } from '../../src/core/errors.js';

const codec = new CursorCodec(Buffer.from('a'.repeat(32)));
const other = new CursorCodec(Buffer.from('b'.repeat(32)));

describe('cursors', () => {
  it('round-trips any payload', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (payload) => {
        expect(codec.decode('svc-cur:', codec.encode('svc-cur:', payload))).toEqual(JSON.parse(JSON.stringify(payload)));
      }),
    );
  });

  it('refuses any single-character alteration', () => {
    const cursor = codec.encode('svc-cur:', { t: 'weather', k: '1,2', h: 'sha256-x' });
    fc.assert(
      fc.property(fc.integer({ min: 'svc-cur:'.length, max: cursor.length - 1 }), fc.constantFrom('A', 'z', '0', '_', '.'), (i, ch) => {
        fc.pre(cursor[i] !== ch);
        const forged = cursor.slice(0, i) + ch + cursor.slice(i + 1);
        expect(() => codec.decode('svc-cur:', forged)).toThrow(ApiError);
      }),
    );
  });

  it('refuses foreign cursors: another secret or another prefix', () => {
    const cursor = other.encode('svc-cur:', { t: 'x' });
    expect(() => codec.decode('svc-cur:', cursor)).toThrow(/not a cursor issued by this service/);
    expect(() => codec.decode('svc-bt-cur:', codec.encode('svc-cur:', { t: 'x' }))).toThrow(ApiError);
    expect(() => codec.decode('svc-cur:', 'svc-cur:garbage')).toThrow(ApiError);
  });
});
