/**
 * Per-item requests to a host that answers one item per request (Coinbase's product ticker): at most `limit` in
 * flight, so a 50-coin query does not burst past the host's rate limit, and each item's request shared by every
 * query asking for it at the same moment (coalesced within one running service).
 */
const inFlight = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * `fetch()`, joined when `key` is already being fetched in `scope`: an object the running service holds once (its
 * config), so two services in one process (tests, the demo) never share an answer.
 */
export function shared<T>(scope: object, key: string, fetch: () => Promise<T>): Promise<T> {
  let pending = inFlight.get(scope);
  if (!pending) inFlight.set(scope, (pending = new Map<string, Promise<unknown>>()));
  const running = pending.get(key) as Promise<T> | undefined;
  if (running) return running;
  const started = fetch().finally(() => pending.delete(key));
  pending.set(key, started);
  return started;
}

/** `task` over every item, at most `limit` at once; each outcome settled in the items' order. */
export async function settledBounded<I, T>(
  items: readonly I[],
  limit: number,
  task: (item: I) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const outcomes = new Array<PromiseSettledResult<T>>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        outcomes[i] = { status: 'fulfilled', value: await task(items[i]!) };
      } catch (reason) {
        outcomes[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcomes;
}
