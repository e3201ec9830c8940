import { createHash, createHmac } from 'node:crypto';
import type { PaymentsRepo } from '../store/repos/payments.js';
import { PASS_HOURS } from './pricing.js';

export type PassKind = keyof typeof PASS_HOURS;

export const PASS_PREFIX = 'svc-pass_';

export interface IssuedPass {
  pass: string;
  kind: PassKind;
  /** Unix s. */
  expires_at: number;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Pass tokens are derived from what paid for them (an x402 authorization key or a checkout session
 * id) with a server secret: the same payment always yields the same pass, so a retried purchase or a
 * re-presented session returns it again without svc ever storing a token in clear.
 */
export class Passes {
  constructor(
    private readonly repo: PaymentsRepo,
    private readonly secret: Buffer,
  ) {}

  tokenFor(origin: string): string {
    return PASS_PREFIX + createHmac('sha256', this.secret).update(origin).digest('base64url');
  }

  /** Issues (or finds again) the pass bought by `origin`; it expires exactly 24 h or 168 h after first issue. */
  async issue(kind: PassKind, origin: string, nowMs: number): Promise<IssuedPass> {
    const pass = this.tokenFor(origin);
    await this.repo.savePass({
      token_hash: hashToken(pass),
      kind,
      origin,
      created_at: nowMs,
      expires_at: nowMs + PASS_HOURS[kind] * 3_600_000,
    });
    return (await this.find(origin))!;
  }

  /** The pass `origin` paid for, if it was issued. */
  async find(origin: string): Promise<IssuedPass | undefined> {
    const pass = this.tokenFor(origin);
    const stored = await this.repo.findPass(hashToken(pass));
    return stored && { pass, kind: stored.kind, expires_at: Math.floor(stored.expires_at / 1000) };
  }

  /** `valid` only before its expiry instant. */
  async check(token: string, nowMs: number): Promise<'valid' | 'expired' | 'unknown'> {
    if (!token.startsWith(PASS_PREFIX)) return 'unknown';
    const stored = await this.repo.findPass(hashToken(token));
    if (!stored) return 'unknown';
    return nowMs < stored.expires_at ? 'valid' : 'expired';
  }
}
