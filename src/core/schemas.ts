import Type, { type TSchema } from 'typebox';

/**
 * Schemas shared by many routes. A schema with a `title` becomes one entry of the OpenAPI
 * document's `components.schemas` and is referenced with `$ref` wherever a route uses it.
 */

export const ReceiptSchema = Type.Object(
  {
    v: Type.Integer({ description: 'receipt format version, 1' }),
    request_hash: Type.String({ description: 'sha256-<base64url> of the canonical request' }),
    response_hash: Type.String({ description: 'sha256-<base64url> of the canonical response body without _receipt' }),
    as_of: Type.Integer({ description: 'Unix seconds of the data' }),
    issued_at: Type.Integer({ description: 'Unix seconds of signing' }),
    sources: Type.Array(Type.String()),
    issuer: Type.String(),
    log: Type.Optional(
      Type.Object(
        {
          origin: Type.String({ description: 'the transparency log’s origin (first line of its checkpoints)' }),
          index: Type.Integer({ minimum: 0, description: 'the entry whose bytes are this receipt’s RFC 8785 canonical JSON' }),
        },
        { description: 'signed: where this receipt is in svc’s transparency log (docs/transparency-log.md); absent on unlogged receipts' },
      ),
    ),
    kid: Type.String({ description: 'RFC 7638 thumbprint of the signing key' }),
    sig: Type.String({ description: 'ed25519-<base64url>' }),
  },
  { title: 'Receipt', description: 'Ed25519 receipt; see the API description for the signing input' },
);

export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'snake_case error code (listed in the API description)' }),
    message: Type.String({ description: 'human-readable explanation' }),
    details: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'e.g. {field, rule} for validation errors' })),
    request_id: Type.Optional(Type.String({ description: 'the X-Request-Id of this answer' })),
  },
  { title: 'ErrorBody', description: 'The one error body of every 4xx and 5xx answer' },
);

/** The opaque `_cursor` of incremental answers. */
export const CursorSchema = Type.String({
  title: 'Cursor',
  description: 'Opaque cursor: `svc-cur:<opaque>` for preview, `svc-bt-cur:<opaque>` for backtest. Pass it back unchanged; never parse it.',
});

/** A normalized data row: snake_case fields plus `source` and `as_of`. */
export const RowSchema = Type.Object(
  {},
  {
    title: 'Row',
    additionalProperties: true,
    description:
      'normalized row; always has source and the freshness fields: as_of (Unix seconds), as_of_kind (source or fetched), age_s, stale, ' +
      'and next_update_at (Unix seconds) where the upstream publishes on a known schedule',
  },
);

export const FreeFlag = Type.Optional(
  Type.Unsafe<'1'>({ type: 'string', enum: ['1'], description: 'free preview; the only allowed value is 1' }),
);

/**
 * The 402 body: the seed's invoice fields plus the standard x402 v1 `x402Version` and `accepts[]`
 * (x402 v2 comes in the `PAYMENT-REQUIRED` header).
 */
export const PaymentChallengeSchema = Type.Object(
  {
    error: Type.String({ description: 'payment_required' }),
    message: Type.String(),
    protocol: Type.String({ description: 'x402' }),
    invoice: Type.Object({
      amount: Type.String({ description: 'USDC atomic units (6 decimals)' }),
      asset: Type.String(),
      chain: Type.String(),
      recipient: Type.String(),
      memo: Type.String({ description: '32-byte hex tied to this request' }),
      expires: Type.String({ description: 'ISO 8601' }),
    }),
    price: Type.Optional(
      Type.Object({ amount: Type.String({ description: 'USDC atomic units' }), usd: Type.String(), asset: Type.String() }),
    ),
    buys: Type.Optional(Type.String({ description: 'what the price pays for' })),
    alternatives: Type.Optional(
      Type.Array(Type.Object({ kind: Type.String({ description: 'free_tier, pass or per_call' }) }, { additionalProperties: true }), {
        description:
          'cheaper ways to an answer: the free tier (`how`, `gives`), a day or week pass (`price_usd`, `hours`, `buy`, `pays_off_after_calls`), per-call payment',
      }),
    ),
    x402Version: Type.Integer(),
    accepts: Type.Array(
      Type.Object(
        {},
        { additionalProperties: true, description: 'x402 v1 PaymentRequirements; empty when the facilitator settles only x402 v2' },
      ),
    ),
  },
  {
    title: 'PaymentChallenge',
    additionalProperties: true,
    description:
      'HTTP 402 body; the X-Payment-Required header carries `invoice` (amount, asset, chain, recipient, memo, expires) at its top level',
  },
);

/** Query of a paged list: at most 200 per page, offsets capped so a deep page stays cheap. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
};

/** The paging fields of a list answer: this page's size, the total, and the window asked for. */
export const PageFields = { count: Type.Integer(), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() };

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, s === 402 ? PaymentChallengeSchema : ErrorSchema]));

/** A free-form JSON object (OpenAPI 3.0 has no patternProperties, so not Type.Record). */
export const FreeObject = (description = 'free-form object') =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });

/** A string enum as OpenAPI 3.0 spells it. */
export const StringEnum = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

/**
 * A `text/event-stream` response: each message is `data: <JSON>` + a blank line, the JSON being
 * `message`. Documented as such in OpenAPI (routes that stream hijack the reply, so nothing is serialized).
 */
export const EventStream = (message: TSchema, description: string) =>
  Type.Unsafe<string>({ type: 'string', contentMediaType: 'text/event-stream', description, 'x-svc-message': message });

/**
 * Security requirements for `schema.security`, by who may call. Routes that do not declare one get
 * a default (see plugins/openapi.ts): public, or paid when the route answers 402.
 */
type Requirement = Record<string, string[]>;
export const SECURITY = {
  /** Anyone; an API key (`X-API-Key`) only raises the rate-limit tier. */
  public: [{}, { apiKey: [] }],
  /** An existing agent, proving itself with the agent key it got at registration. */
  agent: [{ agentKey: [] }],
  /** A write that creates the agent when its agent_id is new: the first one needs no key (`{}`), later ones need it. */
  agentOrNew: [{ agentKey: [] }, {}] as Requirement[],
  /** The agent that started a live session, with its session token. */
  session: [{ sessionToken: [] }],
  /** A portfolio owner, with the token it got when linking (its first link needs none). */
  portfolio: [{ portfolioToken: [] }],
  /** Only an x402 payment (buying a pass); the unpaid call is served too (`{}`): its answer is the 402 challenge. */
  x402: [{ x402: [] }, {}] as Requirement[],
  admin: [{ adminToken: [] }],
  cron: [{ cronKey: [] }],
};
