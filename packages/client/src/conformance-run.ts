import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { errorBody, paymentRequired, rateLimitFields, retryAfter, tokensOf, type Exchange, type Miss } from './conformance-rules.js';
import { parseChallenge, signPayment } from './x402.js';

/**
 * One run of the conformance check (conformance.ts): how it talks to the service (HTTP and the MCP transport's
 * requests, both backing off on 429 by Retry-After and holding every refusal to the header rules) and what it found,
 * one row per rule.
 */

/** The phases of the check (conformance.ts), in the order one run takes them. */
export const CONFORMANCE_PHASES = ['catalog', 'pages', 'sessions', 'payments', 'mcp'] as const;
export type ConformancePhase = (typeof CONFORMANCE_PHASES)[number];

export interface ConformanceRow {
  area: 'http' | 'mcp' | 'retry';
  rule: string;
  /** Set on the rules of issue 35's items 1 and 2 (freshness, budgets). */
  needs?: 'items 1-2';
  seen: number;
  misses: string[];
}

export interface ConformanceReport {
  url: string;
  rows: ConformanceRow[];
  misses: number;
  /** The largest answer in o200k tokens, and where. */
  largest: { tokens: number; where: string };
}

export interface ConformanceOptions {
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Longest total wait on 429s before a request counts as failed. */
  maxBackoffS?: number;
  /** The phases to run, in this order (default: all of CONFORMANCE_PHASES). */
  phases?: readonly ConformancePhase[];
  /** What every request goes through, HTTP and MCP alike (default: the global fetch), e.g. one that adds headers. */
  fetch?: typeof fetch;
}

export interface CatalogEntry {
  type: string;
  example: string;
}

/** Marks the rules of issue 35's items 1 and 2. */
export const FRESH = 'items 1-2' as const;
const DEFAULT_MAX_BACKOFF_S = 120;
const ZERO_ADDRESS = /^0x0{40}$/i;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

export class Run {
  readonly rows = new Map<string, ConformanceRow>();
  /** One throwaway wallet per run: an Idempotency-Key is scoped to the payer, so its retries pay from the same one. */
  readonly wallet = privateKeyToAccount(generatePrivateKey());
  readonly base: string;
  readonly log: (line: string) => void;
  readonly maxBackoffS: number;
  private readonly fetch: typeof fetch;
  private largest = { tokens: 0, where: '' };

  constructor(
    readonly url: string,
    options: ConformanceOptions,
  ) {
    this.base = url.replace(/\/+$/, '');
    this.log = options.log ?? (() => undefined);
    this.maxBackoffS = options.maxBackoffS ?? DEFAULT_MAX_BACKOFF_S;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  check(area: ConformanceRow['area'], rule: string, target: string, miss: Miss, needs?: ConformanceRow['needs']): void {
    const key = `${area}\n${rule}`;
    const row = this.rows.get(key) ?? { area, rule, ...(needs ? { needs } : {}), seen: 0, misses: [] };
    row.seen += 1;
    if (miss !== undefined) row.misses.push(`${target}: ${miss}`);
    this.rows.set(key, row);
  }

  measure(where: string, value: unknown): number {
    const tokens = tokensOf(value);
    if (tokens > this.largest.tokens) this.largest = { tokens, where };
    return tokens;
  }

  report(): ConformanceReport {
    const rows = [...this.rows.values()];
    return { url: this.url, rows, misses: rows.reduce((n, r) => n + r.misses.length, 0), largest: this.largest };
  }

  /** One HTTP exchange, waiting out 429s by Retry-After (each 429 is checked too), then checked against the header rules. */
  async http(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Exchange> {
    let exchange: Exchange | undefined;
    await this.backingOff(
      () =>
        this.fetch(`${this.base}${path}`, {
          method,
          headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        }),
      async (res) => {
        exchange = { method, path: path.split('?')[0]!, status: res.status, headers: res.headers, body: parse(await res.text()) };
        this.rules('http', exchange);
      },
    );
    return exchange!;
  }

  /** A fetch for the MCP transport that checks a refused POST (429 and others) and waits out a 429 as `http` does. */
  readonly mcpFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
    this.backingOff(
      () => this.fetch(input, init),
      async (res) => {
        if (res.status < 400) return;
        const rpc = parse(await res.clone().text()) as { error?: { message?: string; data?: Record<string, unknown> } } | undefined;
        const body = { ...(rpc?.error?.data ?? {}), message: rpc?.error?.message };
        this.rules('mcp', { method: init?.method ?? 'GET', path: '/mcp', status: res.status, headers: res.headers, body });
      },
    );

  /** A test payment for one request, when the instance accepts test payments (its recipient is the zero address). */
  async testPayment(request: { method: string; path: string; body?: unknown }) {
    // Through `http`: a 429 at this point is waited out, not taken for an instance without test payments.
    const unpaid = await this.http(request.method, request.path, { body: request.body });
    const challenge = parseChallenge(unpaid.headers, unpaid.body);
    const option = challenge?.options.find((o) => o.version === 1) ?? challenge?.options[0];
    if (!challenge || !option || !ZERO_ADDRESS.test(option.payTo)) return undefined;
    return signPayment(this.wallet, challenge, option);
  }

  private rules(area: 'http' | 'mcp', x: Exchange): void {
    const target = `${x.method} ${x.path} ${x.status}`;
    this.check(area, 'RateLimit-Policy and RateLimit on every answer', target, rateLimitFields(x));
    if (x.status >= 400) this.check(area, 'house error body and X-Request-Id on every 4xx/5xx', target, errorBody(x));
    if (x.status === 429 || x.status === 503)
      this.check(area, 'Retry-After and the limit in details on every 429/503', target, retryAfter(x));
    if (x.status === 402) this.check(area, '402: spec fields, price, buys, alternatives', target, paymentRequired(x));
  }

  /** Sends until the answer is not a 429 or the waits would pass maxBackoffS, checking each answer and waiting by Retry-After. */
  private async backingOff(send: () => Promise<Response>, check: (res: Response) => Promise<void>): Promise<Response> {
    for (let waited = 0; ;) {
      const res = await send();
      await check(res);
      const wait = Number(res.headers.get('retry-after') ?? 1);
      if (res.status !== 429 || waited + wait > this.maxBackoffS) return res;
      waited += wait;
      await sleep(wait * 1000);
    }
  }
}
