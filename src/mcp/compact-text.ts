/**
 * The text content of a tool result: what a model reads. The same data as structuredContent (what code reads) in a
 * compact form: `key: value` lines, and lists of objects as tables (one header line, one `|`-separated line per item),
 * so the keys of a 50-row answer are spelled once instead of 50 times. A client that shows the model both reads
 * the data once as JSON and once as this, which costs about half as much again; `_receipt` is named, not spelled
 * (code verifies it from structuredContent).
 */
type Value = unknown;

const isObject = (v: Value): v is Record<string, Value> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: Value) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A scalar as written in a line or a table cell: strings without quotes, newlines and pipes escaped. */
const cell = (v: Value): string =>
  typeof v === 'string' ? v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\|/g, '\\|') : JSON.stringify(v ?? null);

/** Lists of objects whose fields are scalars (or small nested values, written as JSON) become tables. */
function table(items: Record<string, Value>[], indent: string): string[] {
  const columns = [...new Set(items.flatMap((item) => Object.keys(item)))];
  const value = (v: Value) => (v === undefined ? '' : isScalar(v) ? cell(v) : JSON.stringify(v));
  return [`${indent}${columns.join(' | ')}`, ...items.map((item) => `${indent}${columns.map((c) => value(item[c])).join(' | ')}`)];
}

function lines(value: Value, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length && value.every(isObject)) return table(value, indent);
    if (value.every(isScalar)) return [`${indent}${value.map(cell).join(', ')}`];
    return value.flatMap((item, i) => [`${indent}- [${i}]`, ...lines(item, `${indent}  `)]);
  }
  if (!isObject(value)) return [`${indent}${cell(value)}`];
  return Object.entries(value).flatMap(([key, v]) => {
    if (key === '_receipt' && isObject(v)) return [`${indent}_receipt: signed (kid ${String(v.kid)}, as_of ${String(v.as_of)})`];
    if (isScalar(v)) return [`${indent}${key}: ${cell(v)}`];
    if (Array.isArray(v) && v.length === 0) return [`${indent}${key}: (none)`];
    return [`${indent}${key}:`, ...lines(v, `${indent}  `)];
  });
}

export function compactText(head: string, value: Record<string, Value>): string {
  return [head, ...lines(value, '')].join('\n');
}
