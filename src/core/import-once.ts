import { createRequire } from 'node:module';

/** Wraps a dynamic import so it runs on first call only; RSS: the SDK loads only when its feature is used. */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let module: Promise<T> | undefined;
  return () => (module ??= load());
}

const require = createRequire(import.meta.url);

/**
 * `importOnce` for code that must stay synchronous (parsers, indicator series): the package is loaded with `require`
 * on the first call, which Node (^20.19, >=22.12, as package.json's engines say) allows for ES modules too. Pass the
 * package's type: `requireOnce<typeof import('pkg')>('pkg')`.
 */
export function requireOnce<T>(specifier: string): () => T {
  let module: T | undefined;
  return () => (module ??= require(specifier) as T);
}
