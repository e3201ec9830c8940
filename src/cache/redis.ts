import type { Redis } from 'ioredis';
import type { Blocked, BucketState, CacheBackend, SlotRef, TakeOptions } from './index.js';
import { bucketState } from './token-bucket.js';

/**
 * The token-bucket step of token-bucket.ts, atomically in Redis. KEYS: the bucket, then
 * optionally the allowed and denied counters (ARGV[4] their TTL; one is bumped), then optionally a
 * block key (ARGV[5] = 1): while it holds a future Unix ms nothing is taken and {-1, until} comes
 * back. ARGV[6] unspent tokens given back, ARGV[7] how many to take at most. Returns {granted, tokens_left}.
 */
const TAKE_TOKEN = `
local capacity, rate, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local counters = #KEYS - tonumber(ARGV[5])
if ARGV[5] == '1' then
  local blocked = tonumber(redis.call('GET', KEYS[#KEYS]))
  if blocked and blocked > now then return {-1, tostring(blocked)} end
end
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
if tokens == nil then tokens = capacity else tokens = tokens + math.max(0, now - tonumber(state[2])) / 1000 * rate end
tokens = math.min(capacity, tokens + tonumber(ARGV[6]))
local granted = math.max(0, math.min(tonumber(ARGV[7]), math.floor(tokens)))
tokens = tokens - granted
local allowed = 0
if granted >= 1 then allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
if counters == 3 then
  local counter = KEYS[3 - allowed]
  redis.call('INCRBY', counter, 1)
  redis.call('PEXPIRE', counter, ARGV[4], 'NX')
end
return {granted, tostring(tokens)}
`;

/** Concurrency slots as a sorted set of holder → lease expiry: sweep expired, then add if below the limit. Returns 1 when held. */
const ACQUIRE_SLOT = `
local holder, limit, expires, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], holder) == false and redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], expires, holder)
redis.call('PEXPIRE', KEYS[1], math.max(1, expires - now))
return 1
`;

/** A counter and its first expiry in one round trip (returns the new value). */
const INCR_WITH_TTL = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
return value
`;

/** The scripts above as EVALSHA commands: each call sends a hash, not the script (rate limiting runs them per request). */
interface Scripts {
  svcTakeToken(...keysThenArgs: (string | number)[]): Promise<[number, string]>;
  svcIncrWithTtl(key: string, by: number, ttlMs: number): Promise<number>;
  svcAcquireSlot(key: string, holder: string, limit: number, expires: number, nowMs: number): Promise<number>;
}

/** Redis-backed cache; values are JSON. Expiry is Redis's own (PX), so every instance agrees. */
export class RedisCache implements CacheBackend {
  private readonly scripts: Scripts;

  constructor(private readonly redis: Redis) {
    // The key count comes first in each call: the bucket, the two counters if tallied, the block key if guarded.
    redis.defineCommand('svcTakeToken', { lua: TAKE_TOKEN });
    redis.defineCommand('svcIncrWithTtl', { numberOfKeys: 1, lua: INCR_WITH_TTL });
    redis.defineCommand('svcAcquireSlot', { numberOfKeys: 1, lua: ACQUIRE_SLOT });
    this.scripts = redis as unknown as Scripts;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const text = await this.redis.get(`cache:${key}`);
    return text === null ? undefined : (JSON.parse(text) as T);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.redis.set(`cache:${key}`, JSON.stringify(value), 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`cache:${key}`, JSON.stringify(value), 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK';
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(`cache:${key}`);
  }

  async incr(key: string, ttlMs: number, by = 1): Promise<number> {
    return this.scripts.svcIncrWithTtl(`cache:${key}`, by, Math.max(1, Math.ceil(ttlMs)));
  }

  async take(
    key: string,
    capacity: number,
    ratePerS: number,
    nowMs: number,
    { tally, blockKey, want = 1, giveBack = 0 }: TakeOptions = {},
  ): Promise<BucketState | Blocked> {
    const keys = [
      `bucket:${key}`,
      ...(tally ? [`cache:${tally.allowed}`, `cache:${tally.denied}`] : []),
      ...(blockKey ? [`cache:${blockKey}`] : []),
    ];
    const counterTtlMs = Math.max(1, Math.ceil(tally?.ttlMs ?? 1));
    const [granted, left] = await this.scripts.svcTakeToken(
      keys.length,
      ...keys,
      capacity,
      ratePerS,
      nowMs,
      counterTtlMs,
      blockKey ? 1 : 0,
      giveBack,
      want,
    );
    if (granted === -1) return { blockedUntil: Number(left) };
    return bucketState(granted, Number(left), capacity, ratePerS);
  }

  async acquireSlot(key: string, holder: string, limit: number, leaseMs: number, nowMs: number): Promise<boolean> {
    return (await this.scripts.svcAcquireSlot(`slots:${key}`, holder, limit, nowMs + leaseMs, nowMs)) === 1;
  }

  async renewSlots(slots: readonly SlotRef[], leaseMs: number, nowMs: number): Promise<void> {
    if (slots.length === 0) return;
    const batch = this.redis.pipeline();
    // XX: only leases still held; the key's own expiry follows the longest lease.
    for (const { key, holder } of slots) batch.zadd(`slots:${key}`, 'XX', nowMs + leaseMs, holder).pexpire(`slots:${key}`, leaseMs, 'GT');
    await batch.exec();
  }

  async releaseSlot(key: string, holder: string): Promise<void> {
    await this.redis.zrem(`slots:${key}`, holder);
  }

  async countSlots(key: string, nowMs: number): Promise<number> {
    return this.redis.zcount(`slots:${key}`, `(${nowMs}`, '+inf');
  }
}
