import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import canonicalize from 'canonicalize';
import { canonicalJson, sha256Tagged } from '../../src/core/canonical-json.js';

describe('RFC 8785 canonical JSON', () => {
  it('matches the RFC examples', () => {
    // RFC 8785 §3.2.2 (sorting) and §3.2.3 (number and string serialization).
    expect(
      canonicalJson({
        // eslint-disable-next-line no-loss-of-precision -- RFC 8785's own test vector, serialized as 333333333.3333333
        numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001],
        string: '\u20ac$\u000F\u000aA\'\u0042\u0022\u005c\\"/',
        literals: [null, true, false],
      }),
    ).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
    expect(
      canonicalJson({
        '\u20ac': 'Euro Sign',
        '\r': 'Carriage Return',
        '\ufb33': 'Hebrew Letter Dalet With Dagesh',
        '1': 'One',
        '\ud83d\ude00': 'Emoji: Grinning Face',
        '\u0080': 'Control',
        '\u00f6': 'Latin Small Letter O With Diaeresis',
      }),
    ).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('is independent of key order and idempotent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          const reversed = Object.fromEntries(Object.entries(value).reverse());
          expect(canonicalJson(reversed)).toBe(text);
        }
      }),
    );
  });

  it('writes what the canonicalize package writes, array-index keys, __proto__ and unsorted nesting included', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '9', '01', '4294967294', '4294967295', '__proto__'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node')), fc.dictionary(key, tie('node'))),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(canonicalize(v));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson({ b: { 10: 1, 9: 2, a: 3 }, a: [{ z: 1, y: 2 }] })).toBe('{"a":[{"y":2,"z":1}],"b":{"10":1,"9":2,"a":3}}');
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
  });

  it('rejects what RFC 8785 cannot write: non-finite numbers and lone surrogates, in values and keys', () => {
    for (const bad of [NaN, Infinity, -Infinity, '\ud800', 'a\udc00b', { '\udbff': 1 }, { b: [{ a: '\ud83d' }] }]) {
      expect(() => canonicalJson({ z: 1, a: bad })).toThrow();
    }
    // A backslash followed by "ud800" is text, and a surrogate pair is a character.
    expect(canonicalJson({ a: '\\ud800', b: '\ud83d\ude00' })).toBe('{"a":"\\\\ud800","b":"\ud83d\ude00"}');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('hashes as sha256-<base64url>', () => {
    expect(sha256Tagged({ b: 1, a: [true] })).toBe(sha256Tagged({ a: [true], b: 1 }));
    expect(sha256Tagged({})).toMatch(/^sha256-[A-Za-z0-9_-]{43}$/);
  });
});
