import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Audit finding 8: a property-based fuzzer over every operation in /openapi.json. Parameters and
 * bodies are drawn from the schema, mixed with hostile values (lone surrogates, 1e400, huge
 * integers, prototype keys, 1 MB strings, wrong types). Every answer must be < 500, every 4xx must
 * carry the house error body, and a rejected request must not add a row anywhere.
 */
interface Schema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
}

/** Markers swapped for what JSON.stringify cannot produce (raw 1e400) or what would flood a report (1 MB), after generation. */
const MB_MARKER = '@@MB';
const RAW_TOKENS: Record<string, string> = {
  '"@@1e400"': '1e400',
  '"@@-1e400"': '-1e400',
  '"@@big"': '123456789012345678901234567890',
  [MB_MARKER]: 'x'.repeat(1_048_576),
};
const expand = (text: string) => Object.entries(RAW_TOKENS).reduce((t, [marker, raw]) => t.split(marker).join(raw), text);

const hostileText = fc.oneof(
  fc.constantFrom(
    '\ud800',
    'a\udfffb',
    '1e400',
    '-1e400',
    '1e309',
    'Infinity',
    '-Infinity',
    'NaN',
    '9e12',
    '99999999999999999999',
    '-1',
    '0',
    '0.5',
  ),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '',
    ' ',
    '%00',
    '\u0000',
    '../../etc/passwd',
    '<img src=x onerror=alert(1)>',
    'svc-ent:__proto__',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
);
const hugeText = fc.constant(MB_MARKER);
const hostileJson = fc.oneof(
  hostileText,
  fc.constantFrom<unknown>(null, true, false, 0, -0, 1e308, -1e308, [], {}, '@@1e400', '@@-1e400', '@@big', [[[[[[]]]]]]),
  fc.jsonValue({ maxDepth: 3 }),
);

function valueFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return hostileJson;
  if (schema.enum) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: hostileJson });
  switch (schema.type) {
    case 'integer':
      return fc.oneof(
        { weight: 2, arbitrary: fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 }) },
        { weight: 1, arbitrary: hostileJson },
      );
    case 'number':
      return fc.oneof(
        { weight: 2, arbitrary: fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true }) },
        { weight: 1, arbitrary: hostileJson },
      );
    case 'boolean':
      return fc.oneof(fc.boolean(), hostileJson);
    case 'array':
      return fc.oneof({ weight: 2, arbitrary: fc.array(valueFor(schema.items), { maxLength: 25 }) }, { weight: 1, arbitrary: hostileJson });
    case 'object':
      return schema.properties ? objectFor(schema) : fc.oneof(fc.dictionary(hostileText, hostileJson, { maxKeys: 4 }), hostileJson);
    default:
      return fc.oneof(
        { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
        { weight: 2, arbitrary: hostileText },
        { weight: 1, arbitrary: hostileJson },
      );
  }
}

function objectFor(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(schema.properties ?? {});
  const record = Object.fromEntries(keys.map((k) => [k, valueFor(schema.properties![k])]));
  return fc.record(record, { requiredKeys: keys.filter((k) => (schema.required ?? []).includes(k) || Math.random() < 0.5) });
}

/** JSON text for a body: the generated object, sometimes with a prototype key, a raw 1e400 or 1 MB spliced in. */
const bodyText = (schema: Schema | undefined) =>
  fc.oneof(
    { weight: 6, arbitrary: (schema?.properties ? objectFor(schema) : valueFor(schema)).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: objectFor(schema ?? {}).map((v) => JSON.stringify(v).replace(/^\{/, '{"__proto__":{"polluted":1},').replace(',}', '}')),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '[1,',
        'null',
        '"text"',
        '{"a":"\\ud800"}',
        `{"a":"${MB_MARKER}"}`,
        '[' + '['.repeat(40) + ']'.repeat(41),
      ),
    },
  );

/** Percent-encodes like a sloppy client: lone surrogates become their raw (invalid UTF-8) bytes. */
const percentEncode = (text: string) =>
  encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\u0001'))
    .split('%01')
    .join('%ED%A0%80');
/** Raw query suffixes no URLSearchParams would produce: broken escapes, invalid UTF-8, repeated keys. */
const rawQuerySuffix = fc.constantFrom(
  '',
  '',
  '',
  '&q=%E0%A4%A',
  '&q=%FF%FE',
  '&%=%',
  '&type=crypto-price&type=weather',
  '&__proto__[x]=1',
  '&constructor=1',
);

/** A generated value as a query text: strings as they are, anything else as JSON (objects may have a key `toString`). */
const asParam = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

function requestFor(op: Operation) {
  const params = op.parameters.filter((p) => p.in !== 'header');
  const paramArbs = Object.fromEntries(
    params.map((p) => [p.name, fc.oneof({ weight: 9, arbitrary: valueFor(p.schema).map(asParam) }, { weight: 1, arbitrary: hugeText })]),
  );
  return fc
    .record({
      params: fc.record(paramArbs, {
        requiredKeys: params.filter((p) => p.in === 'path' || p.required || Math.random() < 0.6).map((p) => p.name),
      }),
      body: op.body ? bodyText(op.body) : fc.constant(undefined),
      suffix: rawQuerySuffix,
      ip: fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((o) => o.join('.')),
    })
    .map(({ params: values, body, suffix, ip }) => {
      let path = op.path;
      const query = new URLSearchParams();
      for (const p of params) {
        const v = values[p.name];
        if (v === undefined) continue;
        if (p.in === 'path') path = path.replace(`{${p.name}}`, percentEncode(expand(v)));
        else query.append(p.name, expand(v));
      }
      const qs = query.toString() + suffix;
      return { method: op.method, url: qs ? `${path}?${qs}` : path, body: body === undefined ? undefined : expand(body), ip };
    });
}

const HTML_PAGES = /^\/(watch|olympics)\//;

/** Long-lived streams and pages that never finish an inject are exercised by their own suites. */
const isStreaming = (path: string, op: Record<string, unknown>) =>
  path.endsWith('/stream') || path === '/mcp' || JSON.stringify(op.responses ?? {}).includes('text/event-stream');

describe('fuzzing every route in /openapi.json', () => {
  let t: TestApp;
  let operations: Operation[];
  const stats = { requests: 0, byStatus: new Map<number, number>() };

  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_ADMIN_TOKEN: 'fuzz-admin-token-0123456789' } });
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !isStreaming(path, op))
        .map(([method, op]) => {
          const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
          return {
            method: method.toUpperCase(),
            path,
            parameters: (op.parameters as Parameter[] | undefined) ?? [],
            body: content?.['application/json']?.schema ?? (content ? {} : undefined),
          };
        }),
    );
  });
  afterAll(async () => {
    console.log(
      JSON.stringify({ fuzz_requests: stats.requests, by_status: Object.fromEntries([...stats.byStatus].sort((a, b) => a[0] - b[0])) }),
    );
    await t.close();
  });

  // SQLite's total_changes() counts every row inserted, updated or deleted on the connection: one cheap query per request.
  const rowCount = async () => Number((await sql<{ n: number }>`select total_changes() as n`.execute(t.deps.store.db)).rows[0]!.n);

  it('answers ≥ 10,000 generated requests without a 5xx, with house error bodies, writing nothing when rejecting', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const anyRequest = fc.constantFrom(...operations).chain(requestFor);
    await fc.assert(
      fc.asyncProperty(anyRequest, async (req) => {
        const before = await rowCount();
        const res = await t.app.inject({
          method: req.method as 'GET',
          url: req.url,
          remoteAddress: req.ip,
          ...(req.body === undefined ? {} : { payload: req.body, headers: { 'content-type': 'application/json' } }),
        });
        stats.requests++;
        stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
        const context = `${req.method} ${req.url.slice(0, 300)} ${String(req.body).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        // The one 5xx that is an answer, not a crash: routes that need models say none is configured (this app has none).
        const noModels = res.statusCode === 503 && res.json().error === 'model_unavailable';
        if (!noModels) expect(res.statusCode, context).toBeLessThan(500);
        if (res.statusCode >= 400) {
          // Rejections record nothing; the only write a 4xx may cause is the abuse counter, which lives in the cache.
          expect(await rowCount(), context).toBe(before);
          // Pages for people answer their 404 as a page in their own style; every API answer is the house body.
          if (HTML_PAGES.test(req.url) && String(res.headers['content-type']).startsWith('text/html')) return;
          const body = res.json();
          expect(typeof body.error, context).toBe('string');
          expect(typeof body.message, context).toBe('string');
          expect(typeof body.request_id, context).toBe('string');
        }
      }),
      // A fixed default seed keeps CI reproducible; FUZZ_SEED=<n> explores other inputs.
      { numRuns: 10_000, endOnFailure: true, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
    expect(stats.requests).toBeGreaterThanOrEqual(10_000);
  }, 150_000);
});
