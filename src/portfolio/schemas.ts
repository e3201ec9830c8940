import Type from 'typebox';
import { FreeObject, ReceiptSchema, StringEnum } from '../core/schemas.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const NullableNumber = Nullable(Type.Number());
const NullableString = Nullable(Type.String());

export const UserId = Type.String({
  pattern: '^[A-Za-z0-9._:@-]{3,64}$',
  description: 'your own id for the portfolio user: 3-64 of A-Z a-z 0-9 . _ : @ -',
});

export const LinkBody = Type.Object({ user_id: UserId }, { additionalProperties: false });
export const LinkResponse = Type.Object({
  user_id: Type.String(),
  portfolio_token: Nullable(Type.String({ description: 'shown once, to a new user only; send it as Authorization: Bearer <token>' })),
  link_token: Nullable(Type.String({ description: 'Plaid Link token when Plaid is configured, else null' })),
});

export const ManualHoldingSchema = Type.Object(
  {
    symbol: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9.-]{1,20}$', description: 'ticker or coin symbol (AAPL, BTC)' })),
    contract: Type.Optional(Type.String({ pattern: '^[a-z]+:0x[0-9a-fA-F]{40}$', description: 'token contract as <chain>:<address>' })),
    isin: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}[A-Za-z0-9]{9}[0-9]$', description: 'ISIN (check digit verified)' })),
    quantity: Type.Number({ minimum: 1e-12, maximum: 1e15, description: 'more than 0' }),
    cost_basis: Type.Optional(Type.Number({ minimum: 0, maximum: 1e15, description: 'total cost of the position in USD' })),
  },
  { additionalProperties: false, description: 'exactly one of symbol, contract or isin' },
);

export const SyncBody = Type.Object(
  {
    user_id: UserId,
    public_token: Type.Optional(
      Type.String({ pattern: '^public-[a-z]+-[A-Za-z0-9-]{1,200}$', description: 'from Plaid Link; exchanged once' }),
    ),
    holdings: Type.Optional(
      Type.Array(ManualHoldingSchema, { minItems: 1, maxItems: 200, description: 'manual holdings; replace the previous ones' }),
    ),
    wallets: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z]+:0x[0-9a-fA-F]{40}$' }), {
        minItems: 1,
        maxItems: 10,
        description: 'read-only wallets <chain>:<address> (ethereum, base, optimism, arbitrum, gnosis)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Identifiers = Type.Object({
  ticker: Type.Optional(Type.String()),
  isin: Type.Optional(Type.String()),
  cusip: Type.Optional(Type.String()),
  contract: Type.Optional(Type.String()),
});

const HoldingSchema = Type.Object({
  symbol: NullableString,
  name: NullableString,
  entity_id: Nullable(Type.String({ description: 'canonical entity id, only for an exact ISIN/CUSIP/ticker/contract match' })),
  asset_class: StringEnum(['equity', 'etf', 'fund', 'crypto', 'stablecoin', 'cash', 'fixed_income', 'other'] as const),
  sector: NullableString,
  currency: Type.String(),
  quantity: Type.Number(),
  cost_basis: NullableNumber,
  institution_price: NullableNumber,
  institution_price_as_of: NullableString,
  identifiers: Identifiers,
  source: StringEnum(['plaid', 'manual', 'wallet'] as const),
});

export const SnapshotSchema = Type.Object({
  user_id: Type.String(),
  as_of: Type.Integer({ description: 'Unix seconds of the sync' }),
  source: StringEnum(['plaid', 'manual'] as const),
  holdings: Type.Array(HoldingSchema),
  balances: Type.Array(
    Type.Object({
      account_id: Type.String(),
      name: Type.String(),
      type: Type.String(),
      subtype: NullableString,
      current: NullableNumber,
      available: NullableNumber,
      currency: NullableString,
    }),
  ),
  unmapped: Type.Array(Type.Object({ symbol: NullableString, name: NullableString, identifiers: Identifiers, reason: Type.String() }), {
    description: 'holdings no entity carries exactly; never guessed',
  }),
  transactions: Type.Array(
    Type.Object({
      date: Type.String(),
      name: Type.String(),
      type: Type.String(),
      symbol: NullableString,
      quantity: Type.Number(),
      price: Type.Number(),
      amount: Type.Number(),
      currency: NullableString,
    }),
    { description: 'investment transactions of the last 30 days (Plaid)' },
  ),
});

export const UserQuery = Type.Object({ user_id: UserId });

const Position = Type.Object({
  symbol: NullableString,
  name: NullableString,
  entity_id: NullableString,
  asset_class: Type.String(),
  sector: NullableString,
  currency: Type.String(),
  quantity: Type.Number(),
  price: Type.Number(),
  price_source: Type.String({ description: 'the upstream that priced it (coingecko, yahoo, …), plaid-institution-price, or cash' }),
  price_as_of: Type.Integer({ description: 'Unix seconds of the price' }),
  as_of: Type.Integer({
    description: "Unix seconds of the price: the upstream's observation where it gives one, else svc's fetch or the sync",
  }),
  as_of_kind: StringEnum(['source', 'fetched'] as const, {
    description: 'source: as_of is the upstream’s (or institution’s) time; fetched: svc’s',
  }),
  age_s: Type.Integer({ minimum: 0, description: 'seconds from as_of to the moment of this answer' }),
  stale: Type.Boolean({
    description:
      "true when the price is served past its type's TTL (a fallback, an open circuit), or is an institution price over a day old",
  }),
  value: Type.Number({ description: 'quantity × price' }),
  weight_pct: Type.Number({ description: '100 × value / market_value' }),
  cost_basis: NullableNumber,
  unrealized_pl: Nullable(Type.Number({ description: 'value − cost_basis' })),
});

export const InsightsSchema = Type.Object({
  user_id: Type.String(),
  as_of: Type.Integer({ description: 'oldest price time, Unix seconds' }),
  snapshot_as_of: Type.Integer(),
  currency: Type.String(),
  market_value: Type.Number({ description: 'Σ quantity × price over the priced positions' }),
  positions: Type.Array(Position),
  unpriced: Type.Array(Type.Object({ symbol: NullableString, name: NullableString, reason: Type.String() })),
  allocation: Type.Object({
    asset_class: FreeObject('share of market value per asset class, %'),
    sector: FreeObject('share per sector (Plaid sector, else the entity category), %'),
    currency: FreeObject('share per currency, %'),
  }),
  concentration: Type.Object({
    top_holding: Nullable(Type.Object({ symbol: NullableString, share_pct: Type.Number() })),
    hhi: Nullable(Type.Number({ description: 'Σ w_i², w = value share as a fraction' })),
    effective_positions: Nullable(Type.Number({ description: '1 / hhi' })),
  }),
  unrealized_pl: Nullable(Type.Object({ usd: Type.Number(), pct: NullableNumber, positions_with_cost_basis: Type.Integer() })),
  risk: Type.Object({
    window_days: Type.Integer(),
    observations: Type.Integer(),
    daily_volatility_pct: NullableNumber,
    annualized_volatility_pct: NullableNumber,
    max_drawdown_pct: NullableNumber,
    coverage_pct: Type.Number(),
    note: Type.String(),
  }),
  flagged_tokens: Type.Array(
    Type.Object({
      symbol: NullableString,
      entity_id: Type.String(),
      risk_score: NullableNumber,
      is_honeypot: Nullable(Type.Boolean()),
      receipt_source: Type.String(),
    }),
  ),
  upcoming_events: Type.Array(Type.Object({ symbol: NullableString, kind: Type.String(), date: Type.String(), detail: FreeObject() })),
  sources: Type.Array(Type.String()),
});

export const AskBody = Type.Object(
  { user_id: UserId, question: Type.String({ minLength: 3, maxLength: 500 }) },
  { additionalProperties: false },
);

export const AskResponse = Type.Object({
  user_id: Type.String(),
  question: Type.String(),
  answerable: Type.Boolean(),
  answer: Type.String(),
  citations: Type.Array(
    Type.Object({
      claim: Type.String(),
      source_type: Type.String(),
      receipt_id: Type.String({ description: 'the receipt_id of an item of evidence' }),
    }),
  ),
  dropped_citations: Type.Integer({ description: 'citations the model made to receipts not in evidence (removed)' }),
  evidence: Type.Array(
    Type.Object({
      receipt_id: Type.String({ description: 'its receipt’s response_hash' }),
      source_type: Type.String(),
      label: Type.String(),
      data: FreeObject(),
      _receipt: ReceiptSchema,
    }),
  ),
  model: Type.Object({ id: Type.String(), vendor: Type.String(), model: Type.String({ description: '"demo" in the demo' }) }),
  disclaimer: Type.String(),
});

export const DeleteResponse = Type.Object({ user_id: Type.String(), deleted: Type.Boolean(), plaid_item_removed: Type.Boolean() });
