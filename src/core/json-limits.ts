/**
 * What RFC 8785 canonical JSON can serialize, checked once on every request body before any
 * handler runs: well-formed UTF-16 strings (keys too), finite numbers, bounded nesting and size.
 * A body that passes can always be hashed into a receipt, so no write can fail after it commits.
 */
export const JSON_LIMITS = { maxDepth: 32, maxMembers: 10_000 } as const;

export interface JsonProblem {
  /** JSON Pointer of the offending value ('' = the root). */
  path: string;
  rule: 'well_formed_utf16' | 'finite_number' | 'max_depth' | 'max_members';
  message: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The first problem found, or undefined when `value` is serializable within the limits. */
export function findJsonProblem(value: unknown): JsonProblem | undefined {
  let members = 0;
  const visit = (node: unknown, path: string, depth: number): JsonProblem | undefined => {
    if (typeof node === 'string') {
      return LONE_SURROGATE.test(node)
        ? { path, rule: 'well_formed_utf16', message: 'string contains a lone UTF-16 surrogate' }
        : undefined;
    }
    if (typeof node === 'number') {
      return Number.isFinite(node) ? undefined : { path, rule: 'finite_number', message: 'number is outside the double range' };
    }
    if (node === null || typeof node !== 'object') return undefined;
    if (depth >= JSON_LIMITS.maxDepth) return { path, rule: 'max_depth', message: `nesting deeper than ${JSON_LIMITS.maxDepth} levels` };
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    members += entries.length;
    if (members > JSON_LIMITS.maxMembers)
      return { path, rule: 'max_members', message: `more than ${JSON_LIMITS.maxMembers} members in all` };
    for (const [key, child] of entries) {
      const childPath = pointer(path, key);
      if (typeof key === 'string' && LONE_SURROGATE.test(key))
        return { path: childPath, rule: 'well_formed_utf16', message: 'key contains a lone UTF-16 surrogate' };
      const problem = visit(child, childPath, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(value, '', 0);
}

/**
 * JSON Pointer of the first string (or key) holding U+0000, which Postgres `text` cannot store: no
 * route takes one, so the input guard refuses it on every engine alike.
 */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = pointer(path, key);
    if (key.includes('\u0000')) return childPath;
    const found = findNul(child, childPath);
    if (found !== undefined) return found;
  }
  return undefined;
}
