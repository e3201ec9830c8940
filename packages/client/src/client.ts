import type { paths } from './openapi.js';
import { PaymentRequiredError, SpendCapError, SvcHttpError } from './errors.js';
import type { ResponseMeta } from './meta.js';
import { createTransport, type Answer, type RequestSpec } from './transport.js';
import { fillPath, type DataOf, type HttpMethod, type PathsWith, type RequestOptions } from './typed.js';
import {
  parseChallenge,
  paymentSigner,
  readSettlement,
  signPayment,
  type Challenge,
  type PaymentHeader,
  type PaymentOption,
  type PaymentSigner,
  type PaymentWallet,
} from './x402.js';
import { jwkThumbprint, verifyReceipt, type ReceiptJwk, type ReceiptVerdict, type VerifyOptions } from './receipt.js';
import { watchSession, type WatchOptions } from './session-stream.js';

type Method = 'get' | 'post';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** Query parameters of a route, from the generated OpenAPI types. */
export type QueryOf<P extends keyof paths, M extends Method = 'get'> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** JSON body of a route. */
export type BodyOf<P extends keyof paths, M extends Method = 'post'> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The 200 answer of a route. */
export type ResponseOf<P extends keyof paths, M extends Method = 'get'> =
  Op<P, M> extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;

export interface ClientOptions {
  /** e.g. http://localhost:8080 */
  baseUrl: string;
  /**
   * Signs x402 payments: any viem account that signs typed data (privateKeyToAccount, toAccount, a smart
   * account) or a viem wallet client (browser wallet, JSON-RPC). Without it a 402 is a PaymentRequiredError.
   */
  wallet?: PaymentWallet;
  /**
   * An API key the operator issued (svc_key_…, POST /api/v1/admin/keys), sent as `X-API-Key` with every
   * request: the key's rate-limit tier (standard or pro) instead of the anonymous per-address one.
   */
  apiKey?: string;
  /** A day or week pass (svc-pass_…), sent as `Authorization: Bearer` on paid routes. */
  passToken?: string;
  /** Largest single payment the client signs, in USD (default 1). */
  maxPaymentUsd?: number;
  /** Largest total this client signs over its life, in USD (default 10). */
  maxSessionUsd?: number;
  /** agent_id → agent_key, from an earlier run (see `agentKeys()`). */
  agentKeys?: Record<string, string>;
  /** Expected receipt key id: the key fetched from the service must carry it. */
  receiptKid?: string;
  /** Attempts after a network error, with the same request and payment (default 2). */
  retries?: number;
  /** Milliseconds one exchange (request and answer body) may take (default 30 000); `request(…, { timeoutMs })` overrides it. */
  timeoutMs?: number;
  /**
   * A 429 or 503 with `Retry-After` is sent again after that wait, at most `maxRetries` times (default 2)
   * and only when the wait is at most `maxWaitMs` (default 10 000); otherwise it is an SvcHttpError.
   */
  retryAfter?: { maxRetries?: number; maxWaitMs?: number };
  fetch?: typeof fetch;
}

/** What the last paid call cost, and what the server said about settlement. */
export interface PaymentRecord {
  version: 1 | 2;
  amount: bigint;
  payer: string;
  /** `PAYMENT-RESPONSE` / `X-PAYMENT-RESPONSE`, when the server settled. */
  settlement?: Record<string, unknown>;
  /** The server's `x-payment-status` (unsettled, pending, released), when it sent one. */
  status?: string;
}

const usdToAtomic = (usd: number): bigint => BigInt(Math.round(usd * 1_000_000));
const PASS_REJECTED = new Set(['pass_expired', 'pass_unknown']);
/**
 * Servers from before `tier=paid` answer the free tier to a paid request that carries no payment;
 * a present but invalid `X-Payment` makes them send the challenge, which the client then pays.
 */
const CHALLENGE_PROBE: PaymentHeader = { name: 'X-Payment', value: '{}' };
export type SvcClient = ReturnType<typeof createClient>;

/** A typed client for every svc route, paying x402 challenges under spend caps. */
export function createClient(options: ClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const retries = options.retries ?? 2;
  const { url, exchange, read, commonHeaders } = createTransport({
    baseUrl,
    fetch: doFetch,
    retries,
    timeoutMs: options.timeoutMs ?? 30_000,
    retryAfter: { maxRetries: options.retryAfter?.maxRetries ?? 2, maxWaitMs: options.retryAfter?.maxWaitMs ?? 10_000 },
    headers: options.apiKey ? { 'x-api-key': options.apiKey } : {},
  });
  const perCallCap = usdToAtomic(options.maxPaymentUsd ?? 1);
  const sessionCap = usdToAtomic(options.maxSessionUsd ?? 10);
  const agentKeys = new Map(Object.entries(options.agentKeys ?? {}));
  const claimAgents = new Map<string, string>();
  const sessionTokens = new Map<string, string>();
  /** Answer body → its meta (request id, rate limit, the request sent), for `metaOf` and `verifyReceipt`. */
  const metas = new WeakMap<object, ResponseMeta>();
  let passToken = options.passToken;
  let spent = 0n;
  let lastPayment: PaymentRecord | undefined;
  let receiptKeys: Promise<ReceiptJwk[]> | undefined;
  let signer: PaymentSigner | undefined;

  function httpError(answer: Answer<unknown>): SvcHttpError {
    const body = answer.body as { error?: string; message?: string } | undefined;
    return new SvcHttpError(
      answer.status,
      body?.error ?? 'http_error',
      body?.message ?? JSON.stringify(answer.body ?? ''),
      answer.body,
      answer.meta,
    );
  }

  /** Checks both caps and books the amount, before anything is signed. */
  function reserve(amount: bigint): void {
    if (amount > perCallCap) throw new SpendCapError('per_call', amount, perCallCap);
    if (spent + amount > sessionCap) throw new SpendCapError('session', amount, sessionCap - spent);
    spent += amount;
  }

  async function pay(challenge: Challenge): Promise<{ header: PaymentHeader; option: PaymentOption }> {
    const option = challenge.options[0];
    if (!option)
      throw new PaymentRequiredError('the 402 offers no payment the client can make (exact USDC on Base)', challenge.reason, undefined);
    if (!options.wallet)
      throw new PaymentRequiredError(
        `payment of ${option.amount} USDC atomic units required and no wallet is configured`,
        challenge.reason,
        option.amount,
      );
    reserve(option.amount);
    try {
      signer ??= await paymentSigner(options.wallet);
      return { header: await signPayment(signer, challenge, option), option };
    } catch (error) {
      return refund(option, error);
    }
  }

  /** Sends `spec`; a 402 on a payable route is paid once (pass first, then wallet) and sent again. */
  async function call<T>(spec: RequestSpec, firstPayment?: PaymentHeader): Promise<Answer<T>> {
    const usePass = spec.payable && spec.pass !== false && passToken && !spec.bearer;
    const auth: Record<string, string> = spec.bearer
      ? { authorization: `Bearer ${spec.bearer}` }
      : usePass
        ? { authorization: `Bearer ${passToken}` }
        : {};
    const first = await exchange<T>(
      spec,
      firstPayment ? { ...auth, [firstPayment.name]: firstPayment.value } : auth,
      Boolean(firstPayment),
    );
    if (first.status !== 402 || !spec.payable) return checked(first);
    const challenge = parseChallenge(first.headers, first.body);
    if (!challenge) throw httpError(first);
    if (usePass && challenge.reason && PASS_REJECTED.has(challenge.reason)) passToken = undefined;
    const { header, option } = await pay(challenge);
    const paid = await exchange<T>(spec, { ...(spec.bearer ? auth : {}), [header.name]: header.value }, true).catch((error) =>
      refund(option, error),
    );
    const status = paid.headers.get('x-payment-status') ?? undefined;
    if (paid.status >= 400 || status === 'released') spent -= option.amount;
    if (paid.status === 402) {
      const reason = parseChallenge(paid.headers, paid.body)?.reason;
      throw new PaymentRequiredError(`the service refused the payment${reason ? `: ${reason}` : ''}`, reason, option.amount);
    }
    lastPayment = {
      version: option.version,
      amount: option.amount,
      payer: signer!.address,
      settlement: readSettlement(paid.headers),
      status,
    };
    return checked(paid);
  }

  function refund(option: PaymentOption, error: unknown): never {
    spent -= option.amount;
    throw error;
  }

  function checked<T>(answer: Answer<T>): Answer<T> {
    if (answer.status >= 400) throw httpError(answer);
    if (typeof answer.body === 'object' && answer.body !== null) metas.set(answer.body, answer.meta);
    return answer;
  }

  /** `request(method, path, options)`: one operation of the OpenAPI, typed by its path and method. */
  async function request<M extends HttpMethod, P extends PathsWith<M>>(
    method: M,
    path: P,
    ...[opts]: object extends RequestOptions<P, M> ? [options?: RequestOptions<P, M>] : [options: RequestOptions<P, M>]
  ): Promise<{ data: DataOf<P, M>; meta: ResponseMeta }> {
    const { query, params, body, headers, bearer, pay = true, pass = false, timeoutMs, signal } = (opts ?? {}) as RequestOptions<P, M>;
    const answer = await call<DataOf<P, M>>({
      method: method.toUpperCase() as RequestSpec['method'],
      path: fillPath(path, params),
      query: query,
      body,
      headers,
      bearer,
      payable: pay,
      pass,
      timeoutMs,
      signal,
    });
    return { data: answer.body, meta: answer.meta };
  }

  const get = async <T>(path: string, query?: object, extra: Partial<RequestSpec> = {}) =>
    (await call<T>({ method: 'GET', path, query: query as Record<string, unknown>, ...extra })).body;
  const post = async <T>(path: string, body?: unknown, extra: Partial<RequestSpec> = {}) =>
    (await call<T>({ method: 'POST', path, body, ...extra })).body;

  /**
   * A paid tier: asks with `tier=paid` (a 402 follows and is paid); a server that ignores `tier`
   * answers the free tier (`paid: false`), and is then asked for its challenge explicitly.
   */
  async function paidTier<T extends { paid?: boolean }>(spec: RequestSpec): Promise<T> {
    const answer = await call<T>({ ...spec, payable: true });
    if (answer.body.paid !== false) return answer.body;
    return (await call<T>({ ...spec, payable: true }, CHALLENGE_PROBE)).body;
  }

  /** The published keys, each checked to be its kid's key: the signing key first (checked against the pin), then earlier ones. */
  async function fetchReceiptKeys(): Promise<ReceiptJwk[]> {
    const published = await get<{ kid: string; jwk: ReceiptJwk; keys?: ReceiptJwk[] }>('/.well-known/svc-receipt-pubkey.json');
    const { jwk } = published;
    const earlier = (published.keys ?? []).filter((k) => k.kid !== jwk.kid);
    for (const key of [jwk, ...earlier])
      if ((await jwkThumbprint(key)) !== key.kid || published.kid !== jwk.kid)
        throw new SvcHttpError(200, 'bad_receipt_key', 'the published key id is not the thumbprint of the key', published);
    if (options.receiptKid && jwk.kid !== options.receiptKid)
      throw new SvcHttpError(
        200,
        'receipt_key_changed',
        `the service signs with ${jwk.kid}, not the pinned ${options.receiptKid}`,
        published,
      );
    return [jwk, ...earlier];
  }

  const client = {
    baseUrl,
    request,
    /** Request id, rate limit and the request sent, for an answer body this client returned. */
    metaOf: (body: object): ResponseMeta | undefined => metas.get(body),
    /** USDC atomic units signed so far (payments the server released are given back). */
    spent: () => spent,
    lastPayment: () => lastPayment,
    passToken: () => passToken,
    /** agent_id → agent_key learnt from first writes; persist them to write again later. */
    agentKeys: () => Object.fromEntries(agentKeys),

    catalog: () => get<ResponseOf<'/api/v1/catalog'>>('/api/v1/catalog'),
    preview: (query: QueryOf<'/api/data/preview'>) => get<ResponseOf<'/api/data/preview'>>('/api/data/preview', query),
    /** Same as preview; `since`, `as_of`, `max_age` as the service documents them. */
    query: (query: QueryOf<'/api/data/preview'>) => get<ResponseOf<'/api/data/preview'>>('/api/data/preview', query),

    /**
     * Polls a query, keeping its `since` cursor: yields the first answer, then only answers that
     * changed (with their `diff`), every `intervalMs`, until `signal` aborts.
     */
    async *poll(
      query: Omit<QueryOf<'/api/data/preview'>, 'since'>,
      { intervalMs = 30_000, signal }: { intervalMs?: number; signal?: AbortSignal } = {},
    ) {
      let since: string | undefined;
      while (!signal?.aborted) {
        const answer = await client.query({ ...query, ...(since ? { since } : {}) });
        if (answer._cursor) since = answer._cursor;
        if (answer.changed !== false) yield answer;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, intervalMs);
          signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    },

    /** 1–20 queries; paid by pass or wallet unless `free`. */
    bundle: (body: BodyOf<'/api/data/bundle'>, { free = false } = {}) =>
      post<ResponseOf<'/api/data/bundle', 'post'>>('/api/data/bundle', body, {
        query: free ? { free: '1' } : {},
        payable: !free,
        readOnly: true,
      }),

    entity: {
      resolve: (query: QueryOf<'/api/v1/entity/resolve'>) => get<ResponseOf<'/api/v1/entity/resolve'>>('/api/v1/entity/resolve', query),
      get: (id: string) => get<ResponseOf<'/api/v1/entity/{id}'>>(`/api/v1/entity/${encodeURIComponent(id)}`),
      list: (query: QueryOf<'/api/v1/entity/list'> = {}) => get<ResponseOf<'/api/v1/entity/list'>>('/api/v1/entity/list', query),
    },

    /** Candles; `paid: true` buys up to 10,000 per call (pass or wallet), else the free last 100. */
    backtest: (query: Omit<QueryOf<'/api/v1/backtest'>, 'free'>, { paid = false } = {}) =>
      paid
        ? paidTier<ResponseOf<'/api/v1/backtest'>>({ method: 'GET', path: '/api/v1/backtest', query: { ...query, tier: 'paid' } })
        : get<ResponseOf<'/api/v1/backtest'>>('/api/v1/backtest', { ...query, free: '1' }),

    /** Every page of a paid range, following `_cursor`. */
    async *backtestPages(query: Omit<QueryOf<'/api/v1/backtest'>, 'free' | 'cursor'>) {
      let page = await client.backtest(query, { paid: true });
      yield page;
      while (page._cursor) {
        // A cursor continues the same range: the service checks it against type, q, interval and to.
        page = await client.backtest({ ...query, cursor: page._cursor }, { paid: true });
        yield page;
      }
    },

    agentContext: (query: Omit<QueryOf<'/api/v1/agent-context'>, 'free'>, { paid = false } = {}) =>
      paid
        ? paidTier<ResponseOf<'/api/v1/agent-context'>>({ method: 'GET', path: '/api/v1/agent-context', query: { ...query, tier: 'paid' } })
        : get<ResponseOf<'/api/v1/agent-context'>>('/api/v1/agent-context', { ...query, free: '1' }),

    snapshot: (query: QueryOf<'/api/v1/snapshot'> = {}) => get<ResponseOf<'/api/v1/snapshot'>>('/api/v1/snapshot', query),
    gainers: (query: QueryOf<'/api/v1/gainers'> = {}) => get<ResponseOf<'/api/v1/gainers'>>('/api/v1/gainers', query),
    viralToday: (query: QueryOf<'/api/v1/viral/today'> = {}) => get<ResponseOf<'/api/v1/viral/today'>>('/api/v1/viral/today', query),
    cams: () => get<ResponseOf<'/api/v1/cams'>>('/api/v1/cams'),
    arena: {
      trackRecord: (query: QueryOf<'/api/v1/arena/track-record'>) =>
        get<ResponseOf<'/api/v1/arena/track-record'>>('/api/v1/arena/track-record', query),
      attestation: (id: string) => get<ResponseOf<'/api/v1/arena/attestation/{id}'>>(`/api/v1/arena/attestation/${encodeURIComponent(id)}`),
    },
    trainingStation: {
      agents: (query: QueryOf<'/api/v1/training-station/agents'> = {}) =>
        get<ResponseOf<'/api/v1/training-station/agents'>>('/api/v1/training-station/agents', query),
      leaderboard: (query: QueryOf<'/api/v1/training-station/leaderboard'> = {}) =>
        get<ResponseOf<'/api/v1/training-station/leaderboard'>>('/api/v1/training-station/leaderboard', query),
    },

    /** Server-side verification (POST /api/v1/receipt/verify). */
    verifyReceiptRemote: (receipt: unknown, response?: Record<string, unknown>) =>
      post<ResponseOf<'/api/v1/receipt/verify', 'post'>>(
        '/api/v1/receipt/verify',
        { receipt, ...(response ? { response } : {}) },
        { readOnly: true },
      ),

    /**
     * The service's receipt keys: fetched once, each kid checked against its key and the signing key's against the pin;
     * the signing key first, then the earlier ones a rotation keeps (SVC_SIGNING_KEYS_PREVIOUS on the server).
     */
    receiptKeys: () => (receiptKeys ??= fetchReceiptKeys().catch((error) => ((receiptKeys = undefined), Promise.reject(error as Error)))),

    /** The key the service signs with now. */
    receiptKey: async (): Promise<ReceiptJwk> => (await client.receiptKeys())[0]!,

    /**
     * Offline verification of a body with `_receipt`, or a bare receipt, with the published key its `kid` names. A body this
     * client returned is also checked against the request it answered (`request_hash`); pass `request`
     * to check another one.
     */
    verifyReceipt: async (input: unknown, { request, inclusion }: VerifyOptions = {}): Promise<ReceiptVerdict> =>
      verifyReceipt(input, await client.receiptKeys(), {
        inclusion,
        request: request ?? (typeof input === 'object' && input !== null ? metas.get(input)?.request : undefined),
      }),

    calib: {
      /** The first write for an agent returns its agent_key; the client keeps it and sends it afterwards. */
      async recordClaim(body: BodyOf<'/api/v1/calib/record_claim'>) {
        const answer = await post<ResponseOf<'/api/v1/calib/record_claim', 'post'>>('/api/v1/calib/record_claim', body, {
          bearer: agentKeys.get(body.agent_id),
        });
        if (answer.agent_key) agentKeys.set(body.agent_id, answer.agent_key);
        claimAgents.set(answer.claim_id, body.agent_id);
        return answer;
      },
      /** `agentId` is needed only for claims this client did not record itself. */
      recordOutcome: (body: BodyOf<'/api/v1/calib/record_outcome'>, { agentId }: { agentId?: string } = {}) =>
        post<ResponseOf<'/api/v1/calib/record_outcome', 'post'>>('/api/v1/calib/record_outcome', body, {
          bearer: agentKeys.get(agentId ?? claimAgents.get(body.claim_id) ?? ''),
        }),
      calibrateP: (body: BodyOf<'/api/v1/calib/calibrate_p'>) =>
        post<ResponseOf<'/api/v1/calib/calibrate_p', 'post'>>('/api/v1/calib/calibrate_p', body, { readOnly: true }),
      curve: (query: QueryOf<'/api/v1/calib/curve'>) => get<ResponseOf<'/api/v1/calib/curve'>>('/api/v1/calib/curve', query),
      agentCard: (query: QueryOf<'/api/v1/calib/agent_card'>) =>
        get<ResponseOf<'/api/v1/calib/agent_card'>>('/api/v1/calib/agent_card', query),
    },

    /** AgentShield: ask before acting. Public; every answer carries a signed receipt. */
    shield: {
      verify: (body: BodyOf<'/api/v1/shield/verify'>) =>
        post<ResponseOf<'/api/v1/shield/verify', 'post'>>('/api/v1/shield/verify', body, { readOnly: true }),
      exploitLikelihood: (body: BodyOf<'/api/v1/shield/exploit-likelihood'>) =>
        post<ResponseOf<'/api/v1/shield/exploit-likelihood', 'post'>>('/api/v1/shield/exploit-likelihood', body),
      toolAudit: (body: BodyOf<'/api/v1/shield/tool-audit'>) =>
        post<ResponseOf<'/api/v1/shield/tool-audit', 'post'>>('/api/v1/shield/tool-audit', body),
      agentScan: (body: BodyOf<'/api/v1/shield/agent-scan'>) =>
        post<ResponseOf<'/api/v1/shield/agent-scan', 'post'>>('/api/v1/shield/agent-scan', body, { readOnly: true }),
    },

    passes: {
      /** Buys a pass with the wallet and uses it from then on for paid routes. */
      async buy(kind: 'day' | 'week') {
        const answer = await post<ResponseOf<'/api/v1/pass/day', 'post'>>(`/api/v1/pass/${kind}`, undefined, {
          payable: true,
          pass: false,
        });
        passToken = answer.pass;
        return answer;
      },
    },

    sessions: {
      /** Starts a session and keeps its token for `event` and `end`. */
      async start(body: BodyOf<'/api/agent-session/start'> = {}) {
        const answer = await post<ResponseOf<'/api/agent-session/start', 'post'>>('/api/agent-session/start', body);
        sessionTokens.set(answer.session_id, answer.session_token);
        return answer;
      },
      event: (body: BodyOf<'/api/agent-session/event'>, token = sessionTokens.get(body.session_id)) =>
        post<ResponseOf<'/api/agent-session/event', 'post'>>('/api/agent-session/event', body, { bearer: token }),
      end: (sessionId: string, token = sessionTokens.get(sessionId)) =>
        post<ResponseOf<'/api/agent-session/end', 'post'>>('/api/agent-session/end', { session_id: sessionId }, { bearer: token }),
      get: (sessionId: string) => get<ResponseOf<'/api/agent-session/session'>>('/api/agent-session/session', { session_id: sessionId }),
      watch: (sessionId: string, opts: WatchOptions = {}) =>
        watchSession(
          { fetch: doFetch, url, headers: commonHeaders, retries, refusal: async (response) => httpError(await read(response)) },
          sessionId,
          opts,
        ),
    },
  };

  return client;
}
