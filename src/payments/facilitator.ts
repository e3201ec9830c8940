import { importOnce } from '../core/import-once.js';
import { cdpJwt, type CdpKey } from './cdp-jwt.js';

/** undici (~5 MB of heap with the fetch internals it pulls in) loads with the first call to the facilitator, not at start-up. */
const loadUndici = importOnce(() => import('undici'));

export interface SettleResult {
  success: boolean;
  transaction?: string;
  network?: string;
  payer?: string;
  errorReason?: string;
}

/** The facilitator's verdict on a payment (`POST /verify`). */
export interface VerifyResult {
  isValid: boolean;
  invalidReason?: string;
  payer?: string;
}

/** One `{x402Version, scheme, network}` a facilitator can verify and settle (`GET /supported`). */
export interface SupportedKind {
  x402Version: number;
  scheme: string;
  network: string;
}

/** How svc authenticates to the facilitator: none (x402.org testnet), a static bearer token, or a CDP API key (a JWT per request). */
export type FacilitatorAuth = { kind: 'none' } | { kind: 'bearer'; token: string } | ({ kind: 'cdp' } & CdpKey);

export class FacilitatorUnavailable extends Error {}

/** The x402 facilitator's HTTP API: `POST {url}/verify`, `POST {url}/settle` and `GET {url}/supported`. */
export class Facilitator {
  constructor(
    readonly baseUrl: string,
    private readonly auth: FacilitatorAuth = { kind: 'none' },
    private readonly timeoutMs = 10_000,
  ) {}

  /** Settles a payment of either x402 version, with the requirements of that version. */
  async settle(paymentPayload: { x402Version: number }, paymentRequirements: unknown): Promise<SettleResult> {
    try {
      const res = await this.call('POST', '/settle', { x402Version: paymentPayload.x402Version, paymentPayload, paymentRequirements });
      const body = (await res.body.json().catch(() => ({}))) as Partial<SettleResult>;
      if (typeof body.success === 'boolean') return body as SettleResult;
      return { success: false, errorReason: `facilitator answered HTTP ${res.statusCode}` };
    } catch (e) {
      return { success: false, errorReason: `unexpected_settle_error: ${(e as Error).message}` };
    }
  }

  /**
   * Verifies a payment of either x402 version against the requirements of that version: signatures
   * of any wallet (EIP-1271, EIP-6492), balance and nonce. FacilitatorUnavailable when it gives no verdict.
   */
  async verify(paymentPayload: { x402Version: number }, paymentRequirements: unknown): Promise<VerifyResult> {
    let res;
    try {
      res = await this.call('POST', '/verify', { x402Version: paymentPayload.x402Version, paymentPayload, paymentRequirements });
    } catch (e) {
      throw new FacilitatorUnavailable(`POST ${this.baseUrl}/verify failed: ${(e as Error).message}`);
    }
    const body = (await res.body.json().catch(() => ({}))) as Partial<VerifyResult>;
    if (typeof body.isValid !== 'boolean')
      throw new FacilitatorUnavailable(`POST ${this.baseUrl}/verify answered HTTP ${res.statusCode} without a verdict`);
    return body as VerifyResult;
  }

  /** The kinds the facilitator settles; FacilitatorUnavailable names what went wrong. */
  async supported(): Promise<SupportedKind[]> {
    let res;
    try {
      res = await this.call('GET', '/supported');
    } catch (e) {
      throw new FacilitatorUnavailable(`GET ${this.baseUrl}/supported failed: ${(e as Error).message}`);
    }
    const body = (await res.body.json().catch(() => undefined)) as { kinds?: unknown } | undefined;
    if (res.statusCode !== 200 || !Array.isArray(body?.kinds)) {
      throw new FacilitatorUnavailable(`GET ${this.baseUrl}/supported answered HTTP ${res.statusCode} without a kinds list`);
    }
    return (body.kinds as Partial<SupportedKind>[]).filter(
      (k): k is SupportedKind => typeof k?.x402Version === 'number' && typeof k?.scheme === 'string' && typeof k?.network === 'string',
    );
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown) {
    const url = new URL(this.baseUrl + path);
    const headers: Record<string, string> = { accept: 'application/json', ...(await this.authorization(method, url)) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const { request } = await loadUndici();
    return request(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }

  private async authorization(method: string, url: URL): Promise<Record<string, string>> {
    switch (this.auth.kind) {
      case 'none':
        return {};
      case 'bearer':
        return { authorization: `Bearer ${this.auth.token}` };
      case 'cdp':
        return { authorization: `Bearer ${await cdpJwt(this.auth, method, url, Math.floor(Date.now() / 1000))}` };
    }
  }
}
