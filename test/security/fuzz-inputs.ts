import fc from 'fast-check';

/**
 * What the route fuzzer sends: parameters and bodies drawn from each operation's schema, mixed with
 * hostile values (lone surrogates, U+0000, 1e400, huge integers, prototype keys, 1 MB strings, wrong
 * types, broken escapes).
 */
export interface Schema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: Schema;
}
export interface Operation {
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

export function requestFor(op: Operation) {
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

/** Every content type a client might send a POST with; the multipart ones with and without a boundary. */
export const CONTENT_TYPES: { type: string; body: string }[] = [
  { type: 'text/plain', body: 'hello' },
  { type: 'text/plain; charset=utf-8', body: '{"q":"bitcoin"}' },
  { type: 'application/x-www-form-urlencoded', body: 'a=1&b=%00' },
  { type: 'multipart/form-data', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
  { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
  { type: 'multipart/form-data; boundary=x', body: 'no parts here' },
  { type: 'application/octet-stream', body: '\u0000\u0001\u0002' },
  { type: 'application/xml', body: '<a>1</a>' },
  { type: 'image/png', body: '\u0089PNG\r\n\u001a\n' },
  { type: 'application/json; charset=utf-16', body: '{}' },
  { type: 'application/jsonx', body: '{}' },
  { type: 'application/merge-patch+json', body: '{}' },
  { type: ';;;', body: '{}' },
];

/** A concrete path for an operation: each path parameter replaced by a plausible value. */
export const samplePath = (path: string) => path.replace(/\{[^}]+\}/g, 'sample-1');
