import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import { canonicalJson } from '../core/canonical-json.js';
import { ApiError } from '../core/errors.js';
import type { Charge, IdempotencyRepo, IdempotentRow, StoredAnswer } from '../store/repos/idempotency.js';

/** How long an Idempotency-Key (and a payment's stored answer) is kept: Stripe's 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a run holds a paid request before another may take it over, as if it had died (kill -9): longer than
 * any paid handler takes (a bundle's slowest deadline, a sync settlement's 10 s).
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** How long a concurrent retry waits for the first run's answer before it is told 409 `idempotency_in_progress`. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 250;
const MAX_KEY_CHARS = 255;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Identifies what is being paid for: method, URL and the canonical body. */
export function requestKey(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : canonicalJson(request.body);
  return sha256(`${request.method} ${request.url}\n${body}`);
}

/** The `Idempotency-Key` header, if sent: 1 to 255 visible ASCII characters (Stripe's limit), else a 400 naming it. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(value))
    throw new ApiError('bad_request', `Idempotency-Key must be 1 to ${MAX_KEY_CHARS} visible ASCII characters, sent once`, {
      field: 'Idempotency-Key',
      in: 'header',
      rule: 'format',
    });
  return value;
}

/** The row key of a request: the payer's Idempotency-Key when sent, else the x402 authorization it pays with. */
export const keyedByIdempotencyKey = (payerScope: string, key: string) => `key:${payerScope}:${sha256(key)}`;
export const keyedByAuthorization = (authKey: string) => `x402:${authKey}`;

/** The request this run owns: it runs it, records its charge once, then keeps its answer or releases it. */
export interface OwnedRequest {
  key: string;
  owner: string;
  /** This run took the request over from one that died (its lease ended). */
  takenOver?: boolean;
  /** A charge recorded by the run that died before answering: this run answers without charging again. */
  recovered?: Charge;
  /** Set once the charge is recorded (or recovered): the answer is kept. Unset: the row is released. */
  answered: boolean;
}

export type Begun = { owned: OwnedRequest } | { stored: StoredAnswer } | { conflict: true };

/**
 * Paid requests that a retry must not charge twice (Stripe's idempotency, over x402 payments and passes). A request is
 * claimed with a unique insert before it runs; a retry of the same request then waits for the first run's answer
 * (bounded, then 409), gets the stored answer, or, when the first run died holding it (its lease ended), takes it over
 * and answers without charging again if the charge was recorded. The same key on another request is a conflict.
 */
export class IdempotentRequests {
  constructor(
    private readonly repo: IdempotencyRepo,
    private readonly clock: Clock,
  ) {}

  async begin(key: string, requestKey: string, caller: string): Promise<Begun> {
    const waitUntil = Date.now() + IDEMPOTENCY_WAIT_MS;
    const owner = randomUUID();
    for (let pollMs = POLL_FIRST_MS; ; pollMs = Math.min(POLL_MAX_MS, pollMs * 2)) {
      const now = this.clock.now();
      if (await this.repo.claim(this.newRow(key, requestKey, caller, owner, now))) return { owned: { key, owner, answered: false } };
      const row = await this.repo.find(key);
      if (!row) continue; // released between the insert and the read: claim it again
      if (row.expires_at <= now) {
        await this.repo.forgetExpired(key, row.owner, now);
        continue;
      }
      if (row.request_key !== requestKey) return { conflict: true };
      if (row.state === 'done') return { stored: JSON.parse(row.response_json!) as StoredAnswer };
      if (row.lease_until <= now) {
        const taken = await this.repo.takeOver(key, { owner: row.owner, leaseUntil: row.lease_until }, owner, now + IDEMPOTENCY_LEASE_MS);
        const recovered = row.charged_at === null ? {} : { recovered: chargeOf(row) };
        if (taken) return { owned: { key, owner, answered: false, takenOver: true, ...recovered } };
        continue;
      }
      if (Date.now() >= waitUntil) throw inProgress(Math.ceil((row.lease_until - now) / 1000));
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Records the charge once; false when another run took the request over meanwhile. */
  recordCharge(owned: OwnedRequest, charge: Charge, authorization?: Parameters<IdempotencyRepo['recordCharge']>[4]): Promise<boolean> {
    return this.repo.recordCharge(owned.key, owned.owner, this.clock.now(), charge, authorization);
  }

  /**
   * Keeps the answer of a charged request, whatever it is (every retry gets the same), or releases one that charged
   * nothing, so a retry runs it again.
   */
  async finish(owned: OwnedRequest, answer: StoredAnswer | undefined): Promise<void> {
    if (owned.answered && answer) await this.repo.complete(owned.key, owned.owner, answer);
    else await this.repo.release(owned.key, owned.owner);
  }

  purgeExpired(): Promise<number> {
    return this.repo.purgeExpired(this.clock.now());
  }

  private newRow(key: string, requestKey: string, caller: string, owner: string, now: number): IdempotentRow {
    return {
      key,
      request_key: requestKey,
      caller,
      owner,
      lease_until: now + IDEMPOTENCY_LEASE_MS,
      state: 'running',
      charge_method: null,
      charge_ref: null,
      charge_amount: null,
      charged_at: null,
      settle_headers_json: null,
      response_json: null,
      created_at: now,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    };
  }
}

const chargeOf = (row: IdempotentRow): Charge => ({
  method: row.charge_method!,
  ref: row.charge_ref!,
  amount: row.charge_amount!,
  settleHeaders: JSON.parse(row.settle_headers_json ?? '{}') as Record<string, string>,
});

/** Stripe's 422: the same key on another request (method, URL or body). */
export const keyReused = () =>
  new ApiError('idempotency_key_reused', 'this Idempotency-Key was used for another request (method, URL or body) within 24 h', {
    field: 'Idempotency-Key',
    in: 'header',
  });

/** A retry that waited its bound while the first run still holds the request (Stripe answers 409 at once). */
const inProgress = (leaseLeftS: number) =>
  new ApiError('idempotency_in_progress', 'the same paid request is still running; retry to get its answer', {
    retry_after_s: 1,
    lease_left_s: Math.max(0, leaseLeftS),
  });
