import { readFileSync } from 'node:fs';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * A versioned data file in `src/sources/data/`, checked against its schema on first use. Curated files
 * state their origin in the file (and per row where rows come from different publications).
 */
export function dataFile<S extends TSchema>(name: string, schema: S): () => Static<S> {
  let loaded: Static<S> | undefined;
  return () => {
    if (loaded) return loaded;
    const raw: unknown = JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), 'utf8'));
    if (!Compile(schema).Check(raw)) throw new Error(`src/sources/data/${name} does not match its schema`);
    return (loaded = raw as Static<S>);
  };
}
