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
 * Group commit for the log: appends arriving while transactions are in flight wait for the next one, so one
 * transaction carries a burst. Up to `inFlight` transactions run at once (the store orders them on its size row), so an
 * append waits for the next transaction to start, not for the one in flight to commit. Each append's value (a receipt
 * signed with its index) is built inside the transaction that takes the index, and the caller gets it only after that
 * transaction committed: an acknowledged entry is durable, and a failed transaction took no index (it rolled back), so
 * the log never has a hole.
 */
export class Sequencer {
  private queue: Pending<unknown>[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly appendBatch: AppendBatch,
    private readonly inFlight = 1,
  ) {}

  append<T>(build: (index: number) => Built<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ build, resolve, reject } as Pending<unknown>);
      this.schedule();
    });
  }

  /** Starts a transaction once this turn of the event loop is over (the turn's other appends join it), if one may start. */
  private schedule(): void {
    if (this.scheduled || this.running >= this.inFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.commitNext();
    });
  }

  private async commitNext(): Promise<void> {
    if (this.running >= this.inFlight || this.queue.length === 0) return;
    this.running++;
    const batch = this.queue.splice(0, MAX_BATCH);
    this.schedule();
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
    } finally {
      this.running--;
      this.schedule();
    }
  }
}
