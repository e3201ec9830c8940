import type { BucketState } from './index.js';

export interface Bucket {
  tokens: number;
  /** Unix ms of the last refill. */
  at: number;
}

/**
 * Pure token-bucket step: refill for the time elapsed since `bucket.at`, then take one token if
 * there is one. The Redis store runs the same arithmetic in Lua.
 */
export function takeToken(
  bucket: Bucket | undefined,
  capacity: number,
  ratePerS: number,
  nowMs: number,
): { bucket: Bucket; state: BucketState } {
  const elapsedS = bucket ? Math.max(0, nowMs - bucket.at) / 1000 : 0;
  const tokens = bucket ? Math.min(capacity, bucket.tokens + elapsedS * ratePerS) : capacity;
  const allowed = tokens >= 1;
  const left = allowed ? tokens - 1 : tokens;
  return {
    bucket: { tokens: left, at: nowMs },
    state: {
      allowed,
      remaining: Math.floor(left),
      retryAfterS: allowed ? 0 : Math.ceil((1 - left) / ratePerS),
      resetS: Math.ceil((capacity - left) / ratePerS),
    },
  };
}
