import Type from 'typebox';
import { FreeObject } from '../core/schemas.js';
import { RESOLVER_DOCS, RESOLVER_TYPES, runsResolver } from './resolvers/registry.js';

export const AgentId = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}:[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,191}$',
  description: '<namespace>:<identifier>, e.g. openai:gpt-agent-7 or arena:rsi2:BTC',
  examples: ['openai:gpt-agent-7'],
});
export const AgentKey = Type.String({
  pattern: '^svc-ak_[A-Za-z0-9_-]{32}$',
  description: 'svc-ak_ + 192 random bits (base64url); shown once, send it as Authorization: Bearer <agent_key>',
});
export const PublicJwk = Type.Object(
  {
    kty: Type.Literal('OKP'),
    crv: Type.Literal('Ed25519'),
    x: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'the 32-byte public key, base64url' }),
  },
  { description: 'an Ed25519 public key as an RFC 8037 JWK; other members are ignored', additionalProperties: true },
);
export const Kind = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]*$',
  description: 'free-form claim category',
});
export const Probability = Type.Number({ minimum: 0, maximum: 1 });

export const ClaimBody = Type.Object({
  agent_id: AgentId,
  kind: Kind,
  predicted_p: Probability,
  payload: FreeObject(),
  outcome_resolver: Type.Object(
    {
      type: Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          `who decides the outcome, a free string. svc runs these types: ${RESOLVER_TYPES.filter(runsResolver).join(', ')} (a verified outcome); ` +
          'manual and any other type are stored as given, not run by svc, and their outcomes are self-reported with record_outcome',
      }),
      config: FreeObject(
        "the resolver's settings; its schema is listed per type in outcome_resolver's description (400 naming the field when it does not fit)",
      ),
    },
    {
      description: `How the claim's outcome is decided. The resolvers svc runs at expected_resolution_at; when their data is unavailable they retry for an hour, then the claim expires.\n\n${RESOLVER_DOCS}`,
    },
  ),
  ttl_hours: Type.Integer({ minimum: 1, maximum: 8760 }),
});

export const OutcomeBody = Type.Object({
  claim_id: Type.String({ pattern: '^svc-claim:[A-Za-z0-9_-]{8,64}$' }),
  // No `type` keyword: Ajv coerces typed body values ("1" and true would pass as 1); an enum alone compares strictly.
  outcome: Type.Unsafe<0 | 1>({ enum: [0, 1], description: 'the integer 0 or 1 (a string or boolean is a 400)' }),
  evidence: Type.Optional(FreeObject()),
});

const Nullable = (description: string) => Type.Unsafe<number | null>({ type: 'number', nullable: true, description });

export const Bin = Type.Object({
  low: Type.Number(),
  high: Type.Number(),
  count: Type.Integer(),
  success_count: Type.Integer(),
  success_rate: Nullable('null for an empty bin'),
  smoothed_rate: Type.Number({ description: 'Beta(1,1) posterior mean (s+1)/(n+2)' }),
  avg_p: Nullable('null for an empty bin'),
});

export const CurveResponse = Type.Object({
  agent_id: Type.String(),
  kind: Type.String(),
  bins: Type.Array(Bin),
  ece: Nullable('null without resolved claims'),
  brier: Nullable('null without resolved claims'),
  total_claims: Type.Integer(),
  resolved_claims: Type.Integer(),
  verified_outcomes: Type.Integer({ description: 'outcomes svc checked itself (a price resolver, the arena on candles)' }),
  self_reported_outcomes: Type.Integer({ description: 'outcomes the agent reported with record_outcome' }),
});

/** The paid product tag where the spec puts it (record_claim and agent_card answers). */
export const ProductFields = {
  product: Type.String({ description: 'calib-pro while the agent is on the paid tier, else free' }),
  pro_until: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Unix s when calib-pro ends (past for a lapsed agent); null if it never paid',
  }),
};

export const AgentCard = Type.Object({
  agent_id: Type.String(),
  ...ProductFields,
  outcomes: Type.String({ description: 'verified_only (calib-pro) or all: which outcomes the figures count' }),
  issued_at: Type.Integer(),
  claims_total: Type.Integer(),
  verified_outcomes: Type.Integer({ description: 'over every kind: outcomes svc checked itself' }),
  self_reported_outcomes: Type.Integer({ description: 'over every kind: outcomes the agent reported with record_outcome' }),
  kinds: Type.Array(
    Type.Object({
      kind: Type.String(),
      claims: Type.Integer(),
      resolved: Type.Integer(),
      verified_outcomes: Type.Integer(),
      self_reported_outcomes: Type.Integer(),
      ece: Nullable('null without resolved claims'),
      brier: Nullable('null without resolved claims'),
      miscalibration: Type.String({
        description:
          'insufficient_data (< 30 resolved); well_calibrated (ECE minus the ECE chance alone would give ≤ 0.05); overconfident / underconfident (Σ n_b/N·(avg_p − success_rate) above / below 0 by more than 2 standard errors); mixed (miscalibrated with no net direction)',
      }),
    }),
  ),
});

/** The resolver as record_claim and record_outcome answers state it. */
export const ResolverStatus = Type.Object({
  type: Type.String(),
  run_by_svc: Type.Boolean({ description: 'true while svc will run this resolver for the claim (a verified outcome)' }),
  note: Type.String(),
});
