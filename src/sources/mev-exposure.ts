import Type from 'typebox';
import { roundTo } from '../core/numbers.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { blockscoutHead } from './lib/blockscout.js';
import { evmKey, evmTargetQ, type EvmTarget } from './lib/evm-chains.js';

/** zeromev serves at most 100 blocks per call and classifies blocks some minutes after they land (lag: our guess). */
const WINDOW_BLOCKS = 100;
const LAG_BLOCKS = 50;

const Num = Type.Optional(Type.Union([Type.Number(), Type.Null()]));
const MevTxs = Type.Array(
  Type.Object({
    block_number: Type.Integer(),
    mev_type: Type.String(),
    address_to: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    user_loss_usd: Num,
    user_swap_volume_usd: Num,
  }),
);
type MevTxs = Type.Static<typeof MevTxs>;

export interface Window {
  from: number;
  to: number;
}

/** The blocks to scan: the 100 that end LAG_BLOCKS before the chain head. */
export const windowBefore = (head: number): Window => ({ from: head - LAG_BLOCKS - WINDOW_BLOCKS + 1, to: head - LAG_BLOCKS });

/**
 * Our score: the percentage of user swaps sent to the contract that zeromev classified as sandwich
 * victims (`mev_type` "sandwich"; plain swaps are "swap"), over the window.
 */
export function toRow(target: EvmTarget, window: Window, txs: MevTxs): Row {
  const swaps = txs.filter((t) => t.address_to?.toLowerCase() === target.address && (t.mev_type === 'swap' || t.mev_type === 'sandwich'));
  if (!swaps.length) throw noData(`no swaps to ${target.address} in blocks ${window.from}-${window.to}`);
  const victims = swaps.filter((t) => t.mev_type === 'sandwich');
  return {
    chain: target.chain,
    address: target.address,
    sandwich_risk_score: Math.round((100 * victims.length) / swaps.length),
    swaps_seen: swaps.length,
    sandwiched: victims.length,
    user_loss_usd: roundTo(
      victims.reduce((sum, t) => sum + Math.abs(t.user_loss_usd ?? 0), 0),
      2,
    ),
    sandwiched_volume_usd: roundTo(
      victims.reduce((sum, t) => sum + (t.user_swap_volume_usd ?? 0), 0),
      2,
    ),
    from_block: window.from,
    to_block: window.to,
  };
}

/**
 * Rows (one): chain, address, sandwich_risk_score (0-100: % of the user swaps sent to the contract that were
 * sandwiched, our heuristic), swaps_seen, sandwiched, user_loss_usd, sandwiched_volume_usd, from_block, to_block.
 * Ethereum only (zeromev); the contract is the one swaps are sent to (router or pool).
 */
export default defineSource<EvmTarget>({
  type: 'mev-exposure',
  categories: ['crypto', 'trader', 'defi', 'security'],
  qShape: '<chain>:<contract_address>',
  example: 'ethereum:0x66a9893cc07d91d95644aedd05d03f95e1dba8af',
  desc: '`<chain>:<contract_address>`; sandwich-risk score 0-100',
  parseQ: evmTargetQ('<chain>:<contract_address>', 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', ['ethereum']),
  keyOf: evmKey,
  ttlSeconds: 600,
  deadlineMs: 8000,
  upstreams: {
    // zeromev wants block numbers; the chain head comes from Blockscout (keyless).
    zeromev: async (target, { http, upstream, deadline }) => {
      const window = windowBefore(await blockscoutHead(upstream('blockscout'), deadline));
      const txs = await http.json<MevTxs>('/v1/mevBlock', MevTxs, { deadline, query: { block_number: window.from, count: WINDOW_BLOCKS } });
      return [toRow(target, window, txs)];
    },
  },
});
