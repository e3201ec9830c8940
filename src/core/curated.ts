import { readFileSync } from 'node:fs';
import Type, { type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * Where a curated file's content comes from. `publisher` names who published it, or says that svc's
 * maintainers compiled it and from what; `urls` are the pages it was taken from; `retrieved` is the date
 * (YYYY-MM-DD) they were read. Every curated JSON file under src/ carries one as `origin`.
 */
export const Origin = Type.Object({
  publisher: Type.String({ minLength: 1 }),
  urls: Type.Array(Type.String({ pattern: '^https://' }), { minItems: 1 }),
  retrieved: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  method: Type.Optional(Type.String({ minLength: 1 })),
});
export type Origin = Static<typeof Origin>;

/** The one-line citation rows from a curated file carry in `source`. */
export const citation = (o: Origin): string => `${o.publisher}; ${o.urls.join(' ')}; retrieved ${o.retrieved}`;

/**
 * A versioned curated JSON file, read and checked against its schema on first use (so a malformed file
 * fails loudly rather than serving half a list). `file` is a URL relative to the caller's module.
 */
export function curatedFile<S extends TSchema>(file: URL, schema: S): () => Static<S> {
  let loaded: Static<S> | undefined;
  return () => {
    if (loaded) return loaded;
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const check = Compile(schema);
    if (!check.Check(raw)) {
      throw new Error(`${file.pathname} does not match its schema: ${JSON.stringify([...check.Errors(raw)].slice(0, 3))}`);
    }
    return (loaded = raw);
  };
}
