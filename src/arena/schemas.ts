import Type from 'typebox';
import { ReceiptSchema } from '../core/schemas.js';

const NullableNumber = (description: string) => Type.Unsafe<number | null>({ type: 'number', nullable: true, description });
const NullableString = (description: string) => Type.Unsafe<string | null>({ type: 'string', nullable: true, description });

/** One ranked combination; properties in the order the record stores them, so the GET serves the stored bytes. */
const RankedCombination = Type.Object({
  rank: Type.Integer({ description: 'place by total_pnl_pct, 1 = best' }),
  agent_id: Type.String({ description: 'arena:<strategy>:<asset>' }),
  strategy: Type.String(),
  asset: Type.String(),
  trade_count: Type.Integer({ description: 'closed trades counted' }),
  total_pnl_pct: Type.Number({ description: 'Σ pnl_pct, percent' }),
  win_rate: NullableNumber('wins / trades; null without trades'),
  sharpe_like: NullableNumber('mean / sample sd of pnl_pct per trade; null with < 2 trades or sd 0'),
  brier: NullableNumber('mean (predicted_p − outcome)²; null without trades'),
  latest_attestation: NullableString("arena-att:<id> of the newest counted trade's exit"),
  ranks: Type.Object(
    { pnl: Type.Integer(), win_rate: Type.Integer(), sharpe_like: Type.Integer(), calibration: Type.Integer() },
    { description: 'place under each metric, 1 = best' },
  ),
});

export const ComparisonRecord = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f]{24}$' }),
  attestation: Type.String({ description: 'arena-att:<id>' }),
  event: Type.Literal('compare'),
  window: Type.String(),
  mode: Type.String(),
  as_of_ts: Type.Integer({ description: 'Unix ms: trades that exited up to here count' }),
  from_ts: Type.Unsafe<number | null>({
    type: 'integer',
    nullable: true,
    description: 'Unix ms, exclusive: exits after it count; null for window=all',
  }),
  strategies: Type.Array(Type.String()),
  assets: Type.Array(Type.String()),
  ranking: Type.Array(RankedCombination, { minItems: 15, maxItems: 15 }),
  metric_rules: Type.String(),
  attestation_id_formula: Type.String(),
  _receipt: ReceiptSchema,
});
