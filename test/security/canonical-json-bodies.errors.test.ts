import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { findJsonProblem, JSON_LIMITS } from '../../src/core/json-limits.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const claim = (payload: string) =>
  `{"agent_id":"me:fuzz","kind":"k","predicted_p":0.5,"payload":${payload},"outcome_resolver":{"type":"manual","config":{}},"ttl_hours":1}`;
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Audit finding 2: bodies RFC 8785 cannot serialize are a 400 before any handler, and nothing is stored. */
describe('JSON bodies that cannot be canonicalized', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  const claims = async () =>
    (
      await t.deps.store.db
        .selectFrom('calib_claims')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it.each([
    ['a lone high surrogate', claim('{"x":"\\ud800"}'), '/payload/x', 'well_formed_utf16'],
    ['a lone low surrogate in a key', claim('{"\\udc00":1}'), '/payload/\udc00', 'well_formed_utf16'],
    ['a number past the double range', claim('{"x":1e400}'), '/payload/x', 'finite_number'],
    ['a negative one', claim('[-1e400]'), '/payload/0', 'finite_number'],
    ['nesting deeper than 32', claim(nested(40)), '/payload' + '/0'.repeat(31), 'max_depth'],
    ['more than 10,000 members', claim(`[${Array(10_001).fill(0).join(',')}]`), '/payload', 'max_members'],
  ])('%s → 400 invalid_json naming the path, no claim stored', async (_name, body, path, rule) => {
    const before = await claims();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_claim',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_json', details: { field: path, in: 'body', rule } });
    expect(await claims()).toBe(before);
  });

  it('the same check guards every JSON route (bundle, record_outcome, receipt/verify)', async () => {
    for (const url of ['/api/data/bundle?free=1', '/api/v1/calib/record_outcome', '/api/v1/receipt/verify']) {
      const res = await t.app.inject({ method: 'POST', url, payload: '{"x":"\\udfff"}', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe('invalid_json');
    }
  });

  it('prototype keys stay plain data, never a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/calibrate_p',
      payload: '{"__proto__":{"x":1},"agent_id":"me:a","kind":"k","predicted_p":0.5}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_json');
  });
});

describe('findJsonProblem', () => {
  it('accepts exactly what canonicalJson can serialize within the limits', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        expect(findJsonProblem(value)).toBeUndefined();
        expect(() => canonicalJson(value)).not.toThrow();
      }),
    );
  });

  it('finds every non-finite number and lone surrogate wherever it is', () => {
    const poison = fc.constantFrom<unknown>(Infinity, -Infinity, NaN, '\ud800', 'a\udc00b');
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), poison, fc.string(), (value, bad, key) => {
        expect(findJsonProblem({ [key]: [value, bad] })).toBeDefined();
      }),
    );
  });

  it('counts depth and members exactly at the limits', () => {
    const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
    expect(findJsonProblem(deep(JSON_LIMITS.maxDepth))).toBeUndefined();
    expect(findJsonProblem(deep(JSON_LIMITS.maxDepth + 1))?.rule).toBe('max_depth');
    expect(findJsonProblem(Array(JSON_LIMITS.maxMembers).fill(1))).toBeUndefined();
    expect(findJsonProblem(Array(JSON_LIMITS.maxMembers + 1).fill(1))?.rule).toBe('max_members');
  });
});
