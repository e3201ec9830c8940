/** Aave V3 on Ethereum: recent LiquidationCall events of the Pool, from a public JSON-RPC node or from Etherscan. */

import Type from 'typebox';
import { noData } from '../../upstream/errors.js';
import type { HostHttp } from '../../upstream/client.js';
import { BlockHeader, hex, Log, Rpc, rpcCall, rpcPost, unwrap } from '../../upstream/formats/eth-rpc.js';
import { BlockByTime, ScanLog } from '../../upstream/formats/etherscan-account.js';
import type { Row } from '../define.js';
import { Envelope, etherscanList, type EnvelopeOf } from './etherscan.js';
import { decodeLiquidation, LIQUIDATION_CALL_TOPIC, type LiquidationLog } from './aave-v3-events.js';

export const AAVE_V3_POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';

export const MAX_EVENTS = 10;
/** Public RPCs cap eth_getLogs ranges (often at 1,000 blocks), so six windows cover ~20 hours in one batch. */
const WINDOW_BLOCKS = 1000;
const WINDOWS = 6;
/** Post-merge slot time; only used to turn the block window into a start time for Etherscan. */
const BLOCK_S = 12;

/** The newest events first (block, then position in the block). */
export const newest = (logs: LiquidationLog[]): LiquidationLog[] =>
  [...logs].sort((a, b) => b.block - a.block || b.logIndex - a.logIndex).slice(0, MAX_EVENTS);

const aaveRows = (logs: LiquidationLog[]): Row[] => {
  if (logs.length === 0) throw noData('no Aave V3 liquidation on Ethereum in the last ~20 hours');
  return logs.map(decodeLiquidation);
};

// --- Ethereum JSON-RPC ---

const Head = Rpc(Type.String());
const LogsBatch = Type.Array(Rpc(Type.Array(Log)));
const BlocksBatch = Type.Array(Rpc(BlockHeader));

/** The logs as both sources give them; `at` is the node's block time when it sends one. */
const toLiquidationLog = (l: { topics: string[]; data: string; blockNumber: string; logIndex: string; transactionHash: string }) => ({
  topics: l.topics,
  data: l.data,
  block: Number(l.blockNumber),
  // Etherscan may write a zero index as a bare "0x".
  logIndex: Number(l.logIndex) || 0,
  txHash: l.transactionHash,
});

export function fromRpcLogs(batch: Rpc<Log[]>[]): LiquidationLog[] {
  return batch
    .flatMap(unwrap)
    .flatMap((l) => (l.removed ? [] : [{ ...toLiquidationLog(l), ...(l.blockTimestamp ? { at: Number(l.blockTimestamp) } : {}) }]));
}

export async function liquidationsViaRpc(http: HostHttp, deadline: number): Promise<Row[]> {
  const head = Number(unwrap(await rpcPost<Rpc<string>>(http, rpcCall(1, 'eth_blockNumber', []), Head, deadline)));
  const windows = Array.from({ length: WINDOWS }, (_, i) => {
    const to = head - i * WINDOW_BLOCKS;
    const filter = { address: AAVE_V3_POOL, topics: [LIQUIDATION_CALL_TOPIC], fromBlock: hex(to - WINDOW_BLOCKS + 1), toBlock: hex(to) };
    return rpcCall(i + 1, 'eth_getLogs', [filter]);
  });
  const logs = newest(fromRpcLogs(await rpcPost<Rpc<Log[]>[]>(http, windows, LogsBatch, deadline)));
  const undated = [...new Set(logs.filter((l) => l.at === undefined).map((l) => l.block))];
  if (undated.length > 0) {
    const lookups = undated.map((block, i) => rpcCall(i + 1, 'eth_getBlockByNumber', [hex(block), false]));
    const blocks = (await rpcPost<Rpc<BlockHeader>[]>(http, lookups, BlocksBatch, deadline)).map(unwrap);
    const times = new Map(blocks.map((b) => [Number(b.number), Number(b.timestamp)]));
    for (const log of logs) log.at ??= times.get(log.block);
  }
  return aaveRows(logs);
}

// --- Etherscan V2 (keyed) ---

export async function liquidationsViaEtherscan(http: HostHttp, deadline: number, nowS: number): Promise<Row[]> {
  const since = nowS - WINDOWS * WINDOW_BLOCKS * BLOCK_S;
  const blockQuery = { chainid: 1, module: 'block', action: 'getblocknobytime', timestamp: since, closest: 'before' };
  const byTime = await http.json<BlockByTime>('/v2/api', BlockByTime, { deadline, query: blockQuery });
  if (byTime.status !== '1') etherscanList(byTime); // throws the reason Etherscan gave
  const block = byTime.result;
  const logFilter = { address: AAVE_V3_POOL, topic0: LIQUIDATION_CALL_TOPIC, fromBlock: block, toBlock: 'latest' };
  const query = { chainid: 1, module: 'logs', action: 'getLogs', ...logFilter, page: 1, offset: 1000 };
  // Oldest first, at most 1,000: far more than ~20 hours of liquidations usually hold.
  const logs = etherscanList(await http.json<EnvelopeOf<ScanLog>>('/v2/api', Envelope(ScanLog), { deadline, query }));
  return aaveRows(newest(logs.map((l) => ({ ...toLiquidationLog(l), at: Number(l.timeStamp) }))));
}
