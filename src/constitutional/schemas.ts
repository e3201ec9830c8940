import Type from 'typebox';
import { StringEnum } from '../core/schemas.js';
import { MAX_TEXT_BYTES } from './service.js';

export const Direction = StringEnum(['input', 'output'] as const, {
  description: 'input: text sent to an AI system; output: text an AI system wrote',
});
export const VerdictSchema = StringEnum(['allow', 'flag', 'block'] as const);
const P = Type.Number({ minimum: 0, maximum: 1 });

export const ContextSchema = Type.Object(
  {
    source: Type.Optional(
      StringEnum(['user', 'tool', 'web', 'document', 'email'] as const, {
        description: 'where the text came from; fetched content raises indirect-injection scores',
      }),
    ),
    system_prompt: Type.Optional(
      Type.String({
        maxLength: 16_384,
        description: 'output direction: the system prompt the answer must not repeat (8-word runs); never stored',
      }),
    ),
    secrets: Type.Optional(
      Type.Array(Type.String({ minLength: 6, maxLength: 512 }), {
        maxItems: 20,
        description: 'output direction: secrets the answer must not contain; never stored',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ClassifyBody = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: MAX_TEXT_BYTES, description: `at most ${MAX_TEXT_BYTES} bytes of UTF-8 (413 above)` }),
    direction: Direction,
    context: Type.Optional(ContextSchema),
  },
  { additionalProperties: false },
);

const Span = Type.Object({
  layer: Type.Integer({ description: 'index into normalized_layers' }),
  start: Type.Integer(),
  end: Type.Integer(),
  text: Type.String(),
});
export const PatternHit = Type.Object({ id: Type.String(), score: P, spans: Type.Array(Span) });
const Layer = Type.Object({
  kind: Type.String({
    description:
      'original, normalized, or the decoding that produced it (base64, hex, url, html_entities, unicode_escapes, rot13, leetspeak, ' +
      'despaced, reversed, tag_chars, braille)',
  }),
  text: Type.String(),
  depth: Type.Integer(),
});

export const ClassifyResponse = Type.Object({
  verdict: VerdictSchema,
  p_harmful: P,
  patterns: Type.Array(PatternHit),
  normalized_layers: Type.Array(Layer),
  claim_id: Type.String({ description: 'calibration claim of constitutional:rules (kind harmful); resolved by labelled feedback' }),
});

export const PatternsResponse = Type.Object({
  count: Type.Integer(),
  thresholds: Type.Object({ flag: P, block: P }),
  patterns: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      direction: Direction,
      description: Type.String(),
      examples: Type.Array(Type.String()),
    }),
  ),
});

const ModelRef = Type.Object({ id: Type.String(), vendor: Type.String(), model: Type.String() });
export const ArbitrateResponse = Type.Object({
  verdict: VerdictSchema,
  p_harmful: P,
  agreement: P,
  consensus_rule: Type.String(),
  panel_size: Type.Integer({ description: 'panel models asked (one per vendor, up to four)' }),
  claim_id: Type.Union([Type.String(), Type.Null()], { description: 'claim of constitutional:panel; null when no judge answered' }),
  rules: Type.Object({ verdict: VerdictSchema, p_harmful: P, patterns: Type.Array(PatternHit), claim_id: Type.String() }),
  judges: Type.Array(
    Type.Object({
      model: ModelRef,
      ok: Type.Boolean(),
      verdict: VerdictSchema,
      p_harmful: P,
      patterns: Type.Array(Type.String()),
      rationale: Type.String(),
      claim_id: Type.String(),
    }),
  ),
  failed: Type.Array(
    Type.Object({
      model: ModelRef,
      ok: Type.Boolean(),
      reason: Type.String({ description: 'timeout, vendor_error or invalid_output' }),
      message: Type.String(),
    }),
  ),
});

export const FeedbackBody = Type.Object(
  {
    claim_id: Type.String({ minLength: 1, maxLength: 128 }),
    label: StringEnum(['harmful', 'benign'] as const),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export const FeedbackResponse = Type.Object({
  claim_id: Type.String(),
  agent_id: Type.String(),
  label: Type.String(),
  status: Type.String(),
  outcome: Type.Integer(),
  calibrated_p: P,
  outcome_source: Type.String(),
});

export const HoneypotBody = Type.Object(
  { message: Type.String({ minLength: 1, maxLength: MAX_TEXT_BYTES }) },
  { additionalProperties: false },
);
export const HoneypotResponse = Type.Object({ id: Type.String(), reply: Type.String() });
const Nullable = (t: ReturnType<typeof Type.Integer>) => Type.Union([t, Type.Null()]);
export const HoneypotStats = Type.Object({
  attempts: Type.Integer(),
  distinct_texts: Type.Integer(),
  canary_would_leak: Type.Integer(),
  blocked: Type.Integer(),
  flagged: Type.Integer(),
  first_at: Nullable(Type.Integer()),
  last_at: Nullable(Type.Integer()),
  patterns: Type.Array(Type.Object({ id: Type.String(), attempts: Type.Integer() })),
  canary_fingerprint: Type.String({ description: 'first 16 hex digits of SHA-256 of the planted canary' }),
  canary_rule: Type.String(),
});

export const SelfJailbreakReport = Type.Object({
  id: Type.String(),
  ran_at: Type.Integer(),
  corpus: Type.String(),
  corpus_size: Type.Integer(),
  families: Type.Array(Type.Object({ family: Type.String(), detected: Type.Integer(), total: Type.Integer(), detection_rate: P })),
});
