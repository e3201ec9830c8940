import { sign } from 'node:crypto';
import { randomId } from '../../core/ids.js';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../config.js';
import type { SigningKey } from '../../core/signing-keys.js';
import type { CalibProRepo, DeliveryRow } from '../../store/repos/calib-pro.js';
import { checkUrl, safePost } from '../../upstream/safe-fetch.js';
import { ApiError } from '../../core/errors.js';
import { addressRefusal } from '../../upstream/address-policy.js';

/** Waits before retries 1..5 after a failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h; the 6th failure is final. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
const ATTEMPT_DEADLINE_MS = 5000;

export const WEBHOOK_HEADERS = {
  id: 'x-svc-webhook-id',
  timestamp: 'x-svc-webhook-timestamp',
  signature: 'x-svc-webhook-signature',
  kid: 'x-svc-webhook-kid',
} as const;

/** What a webhook signature covers; the receiver rebuilds it from the headers and the raw body. */
export const webhookSigningString = (id: string, timestampS: number, body: string): string =>
  `svc-webhook-v1\n${id}\n${timestampS}\n${body}`;

export const WEBHOOK_RULES =
  `Each alert is POSTed as JSON to webhook_url with headers ${WEBHOOK_HEADERS.id} (the event id; the same on every retry, so receivers de-duplicate on it), ` +
  `${WEBHOOK_HEADERS.timestamp} (Unix seconds of this attempt), ${WEBHOOK_HEADERS.kid} and ${WEBHOOK_HEADERS.signature}: "ed25519-" + base64url of svc's Ed25519 signature ` +
  '(the receipt key of /.well-known/svc-receipt-pubkey.json, no shared secret) over the UTF-8 string "svc-webhook-v1\\n" + id + "\\n" + timestamp + "\\n" + the raw body. ' +
  'Receivers should reject timestamps more than 5 minutes away from their clock. Any 2xx answer is a delivery; anything else (a 3xx too: redirects are not followed) ' +
  `is retried after ${RETRY_DELAYS_MS.map((ms) => (ms >= 3600_000 ? `${ms / 3600_000} h` : `${ms / 60_000} min`)).join(', ')}, then given up (status failed). ` +
  'webhook_url must be http(s) on a public address and an allowed port (SVC_FETCH_ALLOWED_PORTS); every connection is checked again when it is made.';

/** Signs and delivers calib-pro webhooks through the SSRF-guarded client, with retries from the store. */
export class Webhooks {
  constructor(
    private readonly repo: CalibProRepo,
    private readonly key: SigningKey,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  /** A 400 naming `webhook_url` when it could never be delivered to (scheme, credentials, private literal, port). */
  checkTarget(url: string): void {
    try {
      checkUrl(url, { refuse: this.refusal, ports: this.config.fetchAllowedPorts });
    } catch (error) {
      throw new ApiError('validation_failed', `webhook_url: ${(error as Error).message}`, { field: 'webhook_url' });
    }
  }

  signature(id: string, timestampS: number, body: string): string {
    return `ed25519-${sign(null, Buffer.from(webhookSigningString(id, timestampS, body)), this.key.privateKey).toString('base64url')}`;
  }

  /** Queues an event (it carries its own `id`) for delivery on the next pass. */
  async enqueue(agentId: string, url: string, event: { id: string } & Record<string, unknown>): Promise<void> {
    const now = this.clock.now();
    await this.repo.enqueue({
      id: event.id,
      agent_id: agentId,
      url,
      body: JSON.stringify(event),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      created_at: now,
      delivered_at: null,
    });
  }

  /** One attempt for every delivery that is due; failures are rescheduled (or given up after the last retry). */
  async deliverDue(): Promise<{ delivered: number; failed: number }> {
    let delivered = 0;
    let failed = 0;
    for (const row of await this.repo.dueDeliveries(this.clock.now())) {
      if (await this.attempt(row)) delivered++;
      else failed++;
    }
    return { delivered, failed };
  }

  private readonly refusal = (address: string): string | undefined => (this.allowed(address) ? undefined : addressRefusal(address));

  private readonly allowed = (address: string): boolean => this.config.webhookAllowedAddresses.includes(address);

  private async attempt(row: DeliveryRow): Promise<boolean> {
    const timestampS = Math.floor(this.clock.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      [WEBHOOK_HEADERS.id]: row.id,
      [WEBHOOK_HEADERS.timestamp]: String(timestampS),
      [WEBHOOK_HEADERS.kid]: this.key.kid,
      [WEBHOOK_HEADERS.signature]: this.signature(row.id, timestampS, row.body),
    };
    const error = await safePost(row.url, row.body, headers, {
      deadline: Date.now() + ATTEMPT_DEADLINE_MS,
      ports: this.config.fetchAllowedPorts,
      userAgent: this.config.userAgent,
      allowAddress: this.allowed,
    }).then(
      (status) => (status >= 200 && status < 300 ? undefined : `HTTP ${status}`),
      (e: Error) => e.message,
    );
    const attempts = row.attempts + 1;
    if (!error) {
      await this.repo.updateDelivery(row.id, { status: 'delivered', attempts, delivered_at: this.clock.now(), last_error: null });
      return true;
    }
    const delay = RETRY_DELAYS_MS[attempts - 1];
    await this.repo.updateDelivery(row.id, {
      status: delay === undefined ? 'failed' : 'pending',
      attempts,
      last_error: error,
      next_attempt_at: this.clock.now() + (delay ?? 0),
    });
    return false;
  }
}

/** A fresh event id. */
export const eventId = (): string => randomId('svc-evt:');
