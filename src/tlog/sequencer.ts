/** What an append builds once it knows its index: the entry's bytes (as text) and what the caller gets back. */
export interface Built<T> {
  entry: string;
  value: T;
}

interface Pending<T> {
  build: (index: number) => Built<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Appends `count` entries atomically: `build` gets the first index and answers the entries in order. It may be called
 * again with another index (a guess that another instance took first); the last call's entries are the ones committed.
 */
export type AppendBatch = (count: number, build: (firstIndex: number) => string[]) => Promise<number>;

/** Appends per transaction at most: a burst is split into transactions of this size. */
const MAX_BATCH = 1_000;

/**
 * Group commit for the log: appends arriving while a transaction is in flight wait for the next one, so one
 * transaction carries a burst. Each append's value (a receipt signed with its index) is built inside the
 * transaction that takes the index, and the caller gets it only after that transaction committed: an acknowledged
 * entry is durable, and a failed transaction took no index (it rolled back), so the log never has a hole.
 */
export class Sequencer {
  private queue: Pending<unknown>[] = [];
  private flushing = false;

  constructor(private readonly appendBatch: AppendBatch) {}

  append<T>(build: (index: number) => Built<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ build, resolve, reject } as Pending<unknown>);
      if (!this.flushing) {
        this.flushing = true;
        // The rest of this tick's appends join the batch.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const values: unknown[] = [];
      try {
        await this.appendBatch(batch.length, (first) =>
          batch.map((pending, i) => {
            const { entry, value } = pending.build(first + i);
            values[i] = value;
            return entry;
          }),
        );
        batch.forEach((pending, i) => pending.resolve(values[i]));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.flushing = false;
  }
}
