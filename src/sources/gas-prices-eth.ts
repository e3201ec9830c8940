import Type from 'typebox';
import { roundTo } from '../core/numbers.js';
import { noQ } from './lib/q.js';
import { UpstreamError } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { rpcCall, rpcPost } from '../upstream/formats/eth-rpc.js';

const GasOracle = Type.Object({
  LastBlock: Type.String(),
  SafeGasPrice: Type.String(),
  ProposeGasPrice: Type.String(),
  FastGasPrice: Type.String(),
  suggestBaseFee: Type.String(),
});
const Oracle = Type.Object({ status: Type.String(), message: Type.String(), result: Type.Union([Type.String(), GasOracle]) });
const FeeHistory = Type.Object({
  result: Type.Object({
    oldestBlock: Type.String(),
    baseFeePerGas: Type.Array(Type.String()),
    reward: Type.Array(Type.Array(Type.String())),
  }),
});
type FeeHistory = Type.Static<typeof FeeHistory>;

const gwei = (hexWei: string) => roundTo(Number(BigInt(hexWei)) / 1e9, 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Etherscan reports failures with HTTP 200, status "0" and a sentence in `result`. */
export function fromEtherscan(raw: Type.Static<typeof Oracle>): Row[] {
  if (raw.status !== '1' || typeof raw.result === 'string') {
    const text = typeof raw.result === 'string' ? raw.result : raw.message;
    const reason = /rate limit/i.test(text) ? 'upstream_rate_limited' : /no (data|records)/i.test(text) ? 'no_data' : 'upstream_error';
    throw new UpstreamError(reason, `Etherscan: ${text}`);
  }
  const r = raw.result;
  return [
    {
      safe_gwei: Number(r.SafeGasPrice),
      propose_gwei: Number(r.ProposeGasPrice),
      fast_gwei: Number(r.FastGasPrice),
      base_fee_gwei: Number(r.suggestBaseFee),
      block: Number(r.LastBlock),
    },
  ];
}

/**
 * From eth_feeHistory over 20 blocks: the next block's base fee plus the median 10th / 50th / 90th
 * percentile tip gives safe / propose / fast (our formula; Etherscan's oracle is the primary).
 */
export function fromFeeHistory(raw: FeeHistory): Row[] {
  const { baseFeePerGas, reward, oldestBlock } = raw.result;
  const next = baseFeePerGas.at(-1);
  if (!next || !reward.length) throw new UpstreamError('no_data', 'empty fee history');
  const tip = (i: number) => median(reward.map((r) => gwei(r[i] ?? '0x0')));
  const base = gwei(next);
  return [
    {
      safe_gwei: roundTo(base + tip(0), 3),
      propose_gwei: roundTo(base + tip(1), 3),
      fast_gwei: roundTo(base + tip(2), 3),
      base_fee_gwei: base,
      block: Number(BigInt(oldestBlock)) + baseFeePerGas.length - 2,
    },
  ];
}

/** Rows: safe_gwei, propose_gwei, fast_gwei, base_fee_gwei, block. */
export default defineSource({
  type: 'gas-prices-eth',
  categories: ['crypto', 'finance'],
  qShape: '',
  example: '',
  desc: 'empty; gas price oracle',
  parseQ: noQ,
  ttlSeconds: 15,
  deadlineMs: 4000,
  upstreams: {
    etherscan: async (_q, { http, deadline }) =>
      fromEtherscan(await http.json('/v2/api', Oracle, { deadline, query: { chainid: 1, module: 'gastracker', action: 'gasoracle' } })),
    'eth-rpc': async (_q, { http, deadline }) =>
      fromFeeHistory(await rpcPost<FeeHistory>(http, rpcCall(1, 'eth_feeHistory', ['0x14', 'latest', [10, 50, 90]]), FeeHistory, deadline)),
  },
});
