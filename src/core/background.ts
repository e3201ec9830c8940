/** Where background failures are logged: the app's logger once it exists. */
export interface BackgroundLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

/** How long a job that failed `failures` times in a row waits before its next try: 1 s, 2 s, 4 s … at most a minute. */
export const retryDelayMs = (failures: number): number => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));

/**
 * Work nobody awaits (scheduled jobs, stale-answer refreshes, session feeds) survives any error, a
 * database outage above all: each failure is counted (`svc_background_errors_total{job}`), and a job's
 * outage is logged once when it starts failing and once when it succeeds again, not once per try.
 */
export class BackgroundErrors {
  private readonly failures = new Map<string, number>();
  private log?: BackgroundLog;

  constructor(private readonly count: (job: string) => void) {}

  logTo(log: BackgroundLog): void {
    this.log = log;
  }

  /** Records a failure of `job` and returns how long it should wait before trying again. */
  failed(job: string, err: unknown): number {
    const failures = (this.failures.get(job) ?? 0) + 1;
    this.failures.set(job, failures);
    this.count(job);
    if (failures === 1) this.log?.warn({ err, job }, `background job ${job} failed; retrying with backoff (logged again when it recovers)`);
    return retryDelayMs(failures);
  }

  succeeded(job: string): void {
    const failures = this.failures.get(job);
    if (failures === undefined) return;
    this.failures.delete(job);
    this.log?.info({ job, failures }, `background job ${job} recovered`);
  }

  /** A rejection nobody handled is a bug where it started: logged every time and counted, and the process goes on. */
  unhandled(reason: unknown): void {
    this.count('unhandled_rejection');
    this.log?.error({ err: reason }, 'unhandled promise rejection (a bug: please report it); the process continues');
  }
}
