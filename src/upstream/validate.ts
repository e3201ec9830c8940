import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * Checks upstream answers against their declared shapes. A list declared with `LenientArray` is the one
 * exception to all-or-nothing: an item that does not fit is dropped and counted (`skipped_items` on the
 * answer), so one bad pool among DefiLlama's 15,000 does not turn the whole answer into a bad response.
 */

const LENIENT = 'x-svc-lenient';
const compiled = new WeakMap<TSchema, ReturnType<typeof Compile>>();

export function validator(schema: TSchema): ReturnType<typeof Compile> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = Compile(schema)));
  return check;
}

/**
 * A long list of independent items (pools, coins): items that do not fit `item` are dropped and counted.
 * Never use it for lists whose positions mean something (parallel arrays, tuples).
 */
export const LenientArray = <T extends TSchema>(item: T) => Type.Array(item, { [LENIENT]: true });

/** Where the skipped items of one fetch are counted. */
export interface SkipTally {
  skipped: number;
}

type Schema = { type?: unknown; items?: TSchema | TSchema[]; properties?: Record<string, TSchema>; [LENIENT]?: boolean };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value` with the misfits of every lenient list reachable through object properties and plain arrays removed,
 * and how many were removed. A lenient list whose items all misfit stays as it is: that is a changed shape.
 */
function prune(schema: TSchema, value: unknown): [unknown, number] {
  const s = schema as Schema;
  if (s.type === 'array' && Array.isArray(value) && s.items && !Array.isArray(s.items)) {
    const item = s.items;
    if (s[LENIENT]) {
      const kept = value.filter((v) => validator(item).Check(v));
      return kept.length === 0 && value.length > 0 ? [value, 0] : [kept, value.length - kept.length];
    }
    let dropped = 0;
    const pruned = value.map((v) => {
      const [next, n] = prune(item, v);
      dropped += n;
      return next;
    });
    return [pruned, dropped];
  }
  if (s.type === 'object' && s.properties && isRecord(value)) {
    let dropped = 0;
    const pruned = { ...value };
    for (const [key, property] of Object.entries(s.properties)) {
      if (!(key in value)) continue;
      const [next, n] = prune(property, value[key]);
      pruned[key] = next;
      dropped += n;
    }
    return [pruned, dropped];
  }
  return [value, 0];
}

/**
 * The value when it fits the schema, possibly after dropping misfit items of lenient lists (counted in
 * `skipped`); undefined when it does not fit. The common case, a value that fits, is checked once.
 */
export function fitToSchema(schema: TSchema, value: unknown): { value: unknown; skipped: number } | undefined {
  const check = validator(schema);
  if (check.Check(value)) return { value, skipped: 0 };
  const [pruned, skipped] = prune(schema, value);
  return skipped > 0 && check.Check(pruned) ? { value: pruned, skipped } : undefined;
}
