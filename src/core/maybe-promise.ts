/**
 * A value that is ready now (in-process backends) or later (Redis, the database). Hot paths chain
 * such steps with `mapMaybe` and `settle`, so a request served from memory takes no microtask hop
 * per step, while the same code waits for a remote backend.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `f(value)` now when the value is ready, else once it settles. */
export function mapMaybe<T, U>(value: MaybePromise<T>, f: (ready: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Hands the value to `onValue` (now when ready), or its rejection to `onError`: the bridge to callback-style hooks. */
export function settle<T>(value: MaybePromise<T>, onValue: (ready: T) => void, onError: (error: Error) => void): void {
  if (value instanceof Promise) value.then(onValue, onError);
  else onValue(value);
}
