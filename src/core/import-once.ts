/** Wraps a dynamic import so it runs on first call only; RSS: the SDK loads only when its feature is used. */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let module: Promise<T> | undefined;
  return () => (module ??= load());
}
