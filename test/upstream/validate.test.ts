import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Type from 'typebox';
import { fitToSchema, LenientArray } from '../../src/upstream/validate.js';

const Pool = Type.Object({ pool: Type.String(), tvlUsd: Type.Number() });
const Pools = Type.Object({ status: Type.String(), data: LenientArray(Pool) });
const Strict = Type.Object({ status: Type.String(), data: Type.Array(Pool) });
const good = (i: number) => ({ pool: `p${i}`, tvlUsd: i });

describe('lenient lists', () => {
  it('drops and counts the items of a lenient list that do not fit, keeping the rest in order', () => {
    const raw = { status: 'success', data: [good(1), { pool: 'p2', tvlUsd: null }, good(3), { tvlUsd: 4 }] };
    expect(fitToSchema(Pools, raw)).toEqual({ value: { status: 'success', data: [good(1), good(3)] }, skipped: 2 });
    expect(fitToSchema(Strict, raw)).toBeUndefined();
  });

  it('refuses a lenient list whose items all misfit, and an envelope that misfits, as a changed shape', () => {
    expect(fitToSchema(Pools, { status: 'success', data: [{ pool: 1 }, { tvlUsd: 'x' }] })).toBeUndefined();
    expect(fitToSchema(Pools, { status: 7, data: [good(1), { pool: 2 }] })).toBeUndefined();
    expect(fitToSchema(Pools, { status: 'success', data: [] })).toEqual({ value: { status: 'success', data: [] }, skipped: 0 });
  });

  it('finds lenient lists nested in objects and plain arrays', () => {
    const Nested = Type.Object({ pages: Type.Array(Type.Object({ items: LenientArray(Pool) })) });
    const raw = { pages: [{ items: [good(1), { pool: 'x' }] }, { items: [good(2)] }] };
    expect(fitToSchema(Nested, raw)).toEqual({ value: { pages: [{ items: [good(1)] }, { items: [good(2)] }] }, skipped: 1 });
  });

  it('keeps exactly the fitting items of any mix, counting the others', () => {
    const item = fc.oneof(fc.integer().map(good), fc.record({ pool: fc.integer(), tvlUsd: fc.string() }));
    fc.assert(
      fc.property(fc.array(item, { minLength: 1 }), (data) => {
        const fitting = data.filter((d) => typeof d.pool === 'string');
        const expected = fitting.length ? { value: { status: 'ok', data: fitting }, skipped: data.length - fitting.length } : undefined;
        expect(fitToSchema(Pools, { status: 'ok', data })).toEqual(expected);
      }),
    );
  });
});
