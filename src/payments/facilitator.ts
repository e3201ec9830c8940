import { request } from 'undici';

export interface SettleResult {
  success: boolean;
  transaction?: string;
  network?: string;
  payer?: string;
  errorReason?: string;
}

/** The x402 facilitator's settle call (`POST {url}/settle`). */
export class Facilitator {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async settle(paymentPayload: unknown, paymentRequirements: unknown): Promise<SettleResult> {
    try {
      const res = await request(`${this.baseUrl}/settle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x402Version: 1, paymentPayload, paymentRequirements }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = (await res.body.json().catch(() => ({}))) as Partial<SettleResult>;
      if (typeof body.success === 'boolean') return body as SettleResult;
      return { success: false, errorReason: `facilitator answered HTTP ${res.statusCode}` };
    } catch (e) {
      return { success: false, errorReason: `unexpected_settle_error: ${(e as Error).message}` };
    }
  }
}
