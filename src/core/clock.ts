/** Time comes from an injected clock so tests of expiry, TTLs and windows never sleep. */
export interface Clock {
  /** Unix milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const unixSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);

/** A date text (ISO 8601, RFC 2822, …) as Unix seconds; NaN when unparseable. */
export const parseUnixSeconds = (text: string): number => Math.floor(Date.parse(text) / 1000);

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
