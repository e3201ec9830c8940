import type { BucketState } from './index.js';

export interface Bucket {
  tokens: number;
  /** Unix ms of the last refill. */
  at: number;
}

/**
 * Pure token-bucket step: refill for the time elapsed since `bucket.at` (plus `giveBack` unspent
 * tokens of an earlier lease, never past `capacity`), then take up to `want` whole tokens. The Redis
 * store runs the same arithmetic in Lua.
 */
export function takeToken(
  bucket: Bucket | undefined,
  capacity: number,
  ratePerS: number,
  nowMs: number,
  want = 1,
  giveBack = 0,
): { bucket: Bucket; state: BucketState } {
  const elapsedS = bucket ? Math.max(0, nowMs - bucket.at) / 1000 : 0;
  const tokens = Math.min(capacity, (bucket ? bucket.tokens + elapsedS * ratePerS : capacity) + giveBack);
  const granted = Math.max(0, Math.min(want, Math.floor(tokens)));
  const left = tokens - granted;
  return { bucket: { tokens: left, at: nowMs }, state: bucketState(granted, left, capacity, ratePerS) };
}

/** What a take reports, from the tokens it was granted and the tokens it left in the bucket. */
export function bucketState(granted: number, left: number, capacity: number, ratePerS: number): BucketState {
  const allowed = granted >= 1;
  return {
    allowed,
    granted,
    remaining: Math.floor(left),
    retryAfterS: allowed ? 0 : Math.ceil((1 - left) / ratePerS),
    resetS: Math.ceil((capacity - left) / ratePerS),
  };
}
