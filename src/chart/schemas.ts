import Type, { type Static } from 'typebox';
import { StringEnum } from '../core/schemas.js';
import { ASSETS } from '../arena/paper-trader.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const TRENDS = ['up', 'down', 'sideways'] as const;
export const SIGNALS = ['buy', 'sell', 'hold'] as const;
export type ChartSignal = (typeof SIGNALS)[number];

/** What each vision model must answer; an answer outside it (after the one repair) is that model's failure. */
export const VerdictSchema = Type.Object(
  {
    trend: literals(TRENDS),
    signal: literals(SIGNALS),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'probability that the signal is right' }),
    horizon: Type.String({ minLength: 1, maxLength: 60, description: 'how long the call is meant to hold, e.g. "1-3 days"' }),
    levels: Type.Object(
      {
        support: Type.Array(Type.Number(), { maxItems: 10 }),
        resistance: Type.Array(Type.Number(), { maxItems: 10 }),
      },
      { additionalProperties: false },
    ),
    patterns: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 10 }),
    rationale: Type.String({ minLength: 1, maxLength: 1500 }),
  },
  { additionalProperties: false },
);
export type Verdict = Static<typeof VerdictSchema>;

const TIMEFRAME_PATTERN = '^[A-Za-z0-9 .:-]{1,20}$';

const Options = {
  asset: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9._/-]{1,20}$',
      description: `what the chart shows, e.g. BTC; paper trades need one of ${ASSETS.join(', ')}`,
    }),
  ),
  timeframe: Type.Optional(Type.String({ pattern: TIMEFRAME_PATTERN, description: 'the candle interval shown, e.g. 1h or 1d' })),
  paper_trade: Type.Optional(
    Type.Boolean({ description: 'open a chart-consensus paper trade in the arena when the consensus is buy (needs asset)' }),
  ),
};

export const AnalyzeJsonBody = Type.Object(
  {
    image_b64: Type.String({
      minLength: 1,
      description: 'the image, base64 (a data: URL prefix is accepted); the JSON body may be up to 10 MB',
    }),
    ...Options,
  },
  { additionalProperties: false },
);
export type AnalyzeOptions = { asset?: string; timeframe?: string; paper_trade?: boolean };

/** Documentation of the multipart form (the handler reads the parts itself, under the same limits). */
export const AnalyzeMultipartBody = Type.Object(
  {
    image: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'the image file' }),
    asset: Options.asset,
    timeframe: Options.timeframe,
    paper_trade: Type.Optional(StringEnum(['true', 'false'], { description: 'true opens a paper trade (see paper_trade)' })),
  },
  { additionalProperties: false },
);

const ModelVerdict = Type.Object(
  {
    model: Type.String({ description: 'the model id from SVC_MODELS (demo-<vendor> in the demo)' }),
    vendor: Type.String(),
    model_name: Type.String(),
    ok: Type.Boolean(),
    reason: Type.Optional(StringEnum(['timeout', 'vendor_error', 'invalid_output'])),
    message: Type.Optional(Type.String()),
    verdict: Type.Optional(VerdictSchema),
    calibrated_confidence: Type.Optional(Type.Number({ description: 'the weight this verdict carries in the consensus' })),
    calibration_samples: Type.Optional(Type.Integer({ description: 'resolved chart-trade claims in the bin of this confidence' })),
    repaired: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Weights = Type.Object({ buy: Type.Number(), sell: Type.Number(), hold: Type.Number() }, { additionalProperties: false });

const Consensus = Type.Object(
  {
    signal: Type.Union([StringEnum(SIGNALS), Type.Null()]),
    weights: Weights,
    votes: Type.Object({ buy: Type.Integer(), sell: Type.Integer(), hold: Type.Integer() }, { additionalProperties: false }),
    share: Type.Union([Type.Number(), Type.Null()], { description: 'weight of the winning signal / all weight' }),
    tie: Type.Boolean(),
    models_counted: Type.Integer(),
    rule: Type.String(),
  },
  { additionalProperties: false },
);

const ModelClaim = Type.Object(
  { model: Type.String(), agent_id: Type.String(), claim_id: Type.String(), predicted_p: Type.Number() },
  { additionalProperties: false },
);

const PaperTrade = Type.Object(
  {
    opened: Type.Boolean(),
    reason: Type.Optional(Type.String({ description: 'why no trade was opened' })),
    strategy: Type.Optional(Type.String()),
    asset: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    entry_ts: Type.Optional(Type.Integer()),
    entry_price: Type.Optional(Type.Number()),
    predicted_p: Type.Optional(Type.Number()),
    claim_id: Type.Optional(Type.String()),
    attestation: Type.Optional(Type.String()),
    attestation_url: Type.Optional(Type.String()),
    model_claims: Type.Optional(Type.Array(ModelClaim)),
  },
  { additionalProperties: false },
);

export const AnalyzeResponse = Type.Object(
  {
    verdicts: Type.Array(ModelVerdict),
    consensus: Consensus,
    image_sha256: Type.String({ description: 'SHA-256 (hex) of the image as uploaded' }),
    image: Type.Object(
      { format: Type.String(), width: Type.Integer(), height: Type.Integer(), bytes: Type.Integer() },
      { additionalProperties: false },
    ),
    asset: Type.Union([Type.String(), Type.Null()]),
    timeframe: Type.Union([Type.String(), Type.Null()]),
    demo: Type.Boolean({
      description: 'true when the verdicts come from the built-in vendor fakes (SVC_DEMO without SVC_MODELS), not real models',
    }),
    paper_trade: Type.Optional(PaperTrade),
  },
  { additionalProperties: false },
);
export type AnalyzeResult = Static<typeof AnalyzeResponse>;
export type ModelVerdictRow = Static<typeof ModelVerdict>;
export type ConsensusResult = Static<typeof Consensus>;
export type PaperTradeResult = Static<typeof PaperTrade>;
