import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Cache, BucketState, Limiter, Tally, TakeOptions } from '../cache/index.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import { ApiError } from '../core/errors.js';
import { mapMaybe, type MaybePromise } from '../core/maybe-promise.js';
import type { ApiKeysRepo } from '../store/repos/api-keys.js';
import { policyField } from './ratelimit-fields.js';

export const KEY_PREFIX = 'svc_key_';
export type Tier = 'anonymous' | 'standard' | 'pro' | 'pass';

export interface Identity {
  tier: Tier;
  /** What the bucket is keyed on: an IP, a key id, or a pass hash. */
  subject: string;
}

/** A request's way in: refused by an abuse block, or its identity's bucket after taking a token. */
export type Admission = { blockedS: number } | Standing;

/** Where a request stands: who it was taken for, its tier's quota per minute and the bucket after the take. */
export interface Standing {
  identity: Identity;
  limit: number;
  bucket: BucketState;
}

/** Credentials other than an API key, each looked up only when the request presents it. */
export interface TierLookups {
  /** Does the request carry a pass or an agent key? Synchronous: no look-up happens here. */
  presentsCredential: (request: FastifyRequest) => boolean;
  hasPass: (request: FastifyRequest) => Promise<boolean>;
  /** The calib-pro agent whose key the request carries, if any: its requests use the pro bucket. */
  calibProAgent: (request: FastifyRequest) => Promise<string | undefined>;
}

/** Abuse signals and how many per minute from one IP earn a temporary block. */
export const ABUSE_THRESHOLDS = { invalid_payment: 10, cursor_forgery: 10, client_error: 120 } as const;
export type AbuseKind = keyof typeof ABUSE_THRESHOLDS;
export const BLOCK_MS = 10 * 60_000;
const STATS_WINDOW_MIN = 60;
const STATS_TTL_MS = (STATS_WINDOW_MIN + 1) * 60_000;
const STAT_NAMES = ['requests', 'rate_limited', 'blocks', 'abuse_invalid_payment', 'abuse_cursor_forgery', 'abuse_client_error'] as const;
type StatName = (typeof STAT_NAMES)[number];

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header.trim();
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return bearer?.startsWith(KEY_PREFIX) ? bearer : undefined;
}

/**
 * Who a request is for spend and standing (GET /api/v1/limits): the rate limiter's subject (an API key, a pass, a
 * calib-pro agent, else the client address), hashed so that no address or key is stored in clear.
 */
export function callerOf(request: FastifyRequest): string {
  return sha256(request.standing?.identity.subject ?? `ip:${request.ip}`).slice(0, 32);
}

/** Which abuse signal, if any, an answered request is. */
export function abuseKind(request: FastifyRequest, status: number): AbuseKind | undefined {
  if (status === 402 && request.headers['x-payment']) return 'invalid_payment';
  if (request.apiError?.code === 'invalid_cursor') return 'cursor_forgery';
  return status >= 400 && status < 500 && status !== 402 && status !== 429 ? 'client_error' : undefined;
}

/**
 * API keys, tiered token-bucket rate limits and abuse blocks. State lives in the cache, so with
 * Redis every instance shares the same buckets, counters and blocks.
 */
export class Protection {
  private tally?: Tally & { minute: number };
  /** Each tier's `RateLimit-Policy` value, built once: it goes out on every answer. */
  readonly policies: Readonly<Record<Tier, string>>;

  constructor(
    private readonly config: Config,
    private readonly cache: Cache & Limiter,
    private readonly keys: ApiKeysRepo,
    private readonly clock: Clock,
    private readonly lookups: TierLookups,
  ) {
    const tiers = Object.keys(config.ratePerMin) as Tier[];
    this.policies = Object.fromEntries(tiers.map((tier) => [tier, policyField(tier, config.ratePerMin[tier])])) as Record<Tier, string>;
  }

  async createKey(name: string, tier: 'standard' | 'pro') {
    const key = KEY_PREFIX + randomBytes(24).toString('base64url');
    const id = `key_${randomBytes(8).toString('hex')}`;
    await this.keys.create({ id, key_hash: sha256(key), name, tier, created_at: this.clock.now(), revoked_at: null });
    return { id, key, name, tier };
  }

  listKeys() {
    return this.keys.list();
  }

  revokeKey(id: string): Promise<boolean> {
    return this.keys.revoke(id, this.clock.now());
  }

  /**
   * Blocks first, then the identity's token bucket. A request without credentials is keyed on its
   * IP, so block check and take are one cache step: synchronous in memory and, on Redis, while a token
   * leased from the shared bucket is left (src/cache/leased-buckets.ts), else one round trip.
   * A presented credential is looked up only once the IP is known not to be blocked.
   */
  admit(request: FastifyRequest): MaybePromise<Admission> {
    const blockKey = `block:${request.ip}`;
    if (presentedKey(request) === undefined && !this.lookups.presentsCredential(request))
      return this.take({ tier: 'anonymous', subject: `ip:${request.ip}` }, blockKey);
    return this.admitCredentialed(request, blockKey);
  }

  private async admitCredentialed(request: FastifyRequest, blockKey: string): Promise<Admission> {
    const until = await this.cache.get<number>(blockKey);
    if (until && until > this.clock.now()) return { blockedS: Math.ceil((until - this.clock.now()) / 1000) };
    return this.take(await this.identify(request));
  }

  private async identify(request: FastifyRequest): Promise<Identity> {
    const key = presentedKey(request);
    if (key !== undefined) {
      const row = await this.keys.active(sha256(key));
      if (!row) throw new ApiError('unauthorized', 'unknown or revoked API key', { field: 'X-API-Key' });
      return { tier: row.tier, subject: `key:${row.id}` };
    }
    // The pass comes in Authorization or, next to another credential there, in X-Svc-Pass.
    if (await this.lookups.hasPass(request))
      return { tier: 'pass', subject: `pass:${sha256(String(request.headers['x-svc-pass'] ?? request.headers.authorization))}` };
    const agentId = await this.lookups.calibProAgent(request);
    if (agentId) return { tier: 'pro', subject: `agent:${agentId}` };
    return { tier: 'anonymous', subject: `ip:${request.ip}` };
  }

  private take(identity: Identity, blockKey?: string): MaybePromise<Admission> {
    const limit = this.config.ratePerMin[identity.tier];
    const now = this.clock.now();
    const options: TakeOptions = { tally: this.tallyOf(Math.floor(now / 60_000)), blockKey };
    return mapMaybe(this.cache.take(`rate:${identity.subject}`, limit, limit / 60, now, options), (state) =>
      'blockedUntil' in state ? { blockedS: Math.ceil((state.blockedUntil - now) / 1000) } : { identity, bucket: state, limit },
    );
  }

  /** The minute's request counters, built once a minute rather than on every request (the hot path). */
  private tallyOf(minute: number): Tally {
    if (this.tally?.minute !== minute)
      this.tally = { minute, allowed: `stats:requests:${minute}`, denied: `stats:rate_limited:${minute}`, ttlMs: STATS_TTL_MS };
    return this.tally;
  }

  /** Counts an abuse signal; past its threshold within the minute, the IP is blocked for BLOCK_MS. */
  async record(ip: string, kind: AbuseKind): Promise<void> {
    await this.count(`abuse_${kind}`);
    const n = await this.cache.incr(`abuse:${kind}:${ip}:${this.minute()}`, 120_000);
    if (n === ABUSE_THRESHOLDS[kind] + 1) {
      await this.cache.set(`block:${ip}`, this.clock.now() + BLOCK_MS, BLOCK_MS);
      await this.count('blocks');
    }
  }

  /** Sums of the per-minute counters over the last hour. */
  async stats() {
    const minute = this.minute();
    const sums = await Promise.all(
      STAT_NAMES.map(async (name) => {
        const values = await Promise.all(
          Array.from({ length: STATS_WINDOW_MIN }, (_, i) => this.cache.get<number>(`stats:${name}:${minute - i}`)),
        );
        return [name, values.reduce<number>((a, v) => a + (v ?? 0), 0)] as const;
      }),
    );
    return {
      window_s: STATS_WINDOW_MIN * 60,
      ...(Object.fromEntries(sums) as Record<StatName, number>),
      active_api_keys: await this.keys.countActive(),
      as_of: Math.floor(this.clock.now() / 1000),
    };
  }

  private minute(): number {
    return Math.floor(this.clock.now() / 60_000);
  }

  private async count(name: StatName): Promise<void> {
    await this.cache.incr(`stats:${name}:${this.minute()}`, STATS_TTL_MS);
  }
}
