/** Aave V3 on Ethereum: recent LiquidationCall events of the Pool, from a public JSON-RPC node or from Etherscan. */

import Type, { type TSchema } from 'typebox';
import { noData, UpstreamError } from '../../upstream/errors.js';
import type { HostHttp } from '../../upstream/client.js';
import type { Row } from '../define.js';
import { Envelope, etherscanList, type EnvelopeOf } from './etherscan.js';

export const AAVE_V3_POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';

/** keccak256("LiquidationCall(address,address,address,uint256,uint256,address,bool)"). */
export const LIQUIDATION_CALL_TOPIC = '0xe413a321e8681d831f4dbccbca790d2952b56f977908e45be37335533e005286';

export interface Reserve {
  symbol: string;
  decimals: number;
}

/**
 * Token symbol and decimals by lower-case address. Reserves not listed keep their address and
 * leave the amount null rather than guess the decimals.
 */
export const RESERVES: Readonly<Record<string, Reserve>> = {
  '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2': { symbol: 'WETH', decimals: 18 },
  '0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0': { symbol: 'wstETH', decimals: 18 },
  '0xcd5fe23c85820f7b72d0926fc9b05b43e359b7ee': { symbol: 'weETH', decimals: 18 },
  '0xae78736cd615f374d3085123a210448e74fc6393': { symbol: 'rETH', decimals: 18 },
  '0xbe9895146f7af43049ca1c1ae358b0541ea49704': { symbol: 'cbETH', decimals: 18 },
  '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599': { symbol: 'WBTC', decimals: 8 },
  '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf': { symbol: 'cbBTC', decimals: 8 },
  '0x8236a87084f8b84306f72007f36f2618a5634494': { symbol: 'LBTC', decimals: 8 },
  '0x18084fba666a33d37592fa2633fd49a74dd93a88': { symbol: 'tBTC', decimals: 18 },
  '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48': { symbol: 'USDC', decimals: 6 },
  '0xdac17f958d2ee523a2206206994597c13d831ec7': { symbol: 'USDT', decimals: 6 },
  '0x6b175474e89094c44da98b954eedeac495271d0f': { symbol: 'DAI', decimals: 18 },
  '0xdc035d45d973e3ec169d2276ddab16f1e407384f': { symbol: 'USDS', decimals: 18 },
  '0x4c9edd5852cd905f086c759e8383e09bff1e68b3': { symbol: 'USDe', decimals: 18 },
  '0x9d39a5de30e57443bff2a8307a4256c8797a3497': { symbol: 'sUSDe', decimals: 18 },
  '0x40d16fc0246ad3160ccc09b8d0d3a2cd28ae6c2f': { symbol: 'GHO', decimals: 18 },
  '0x6c3ea9036406852006290770bedfcaba0e23a0e8': { symbol: 'PYUSD', decimals: 6 },
  '0xf939e0a03fb07f59a73314e73794be0e57ac1b4e': { symbol: 'crvUSD', decimals: 18 },
  '0x514910771af9ca656af840dff83e8264ecf986ca': { symbol: 'LINK', decimals: 18 },
  '0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9': { symbol: 'AAVE', decimals: 18 },
};

export const MAX_EVENTS = 10;
/** Public RPCs cap eth_getLogs ranges (often at 1,000 blocks), so six windows cover ~20 hours in one batch. */
const WINDOW_BLOCKS = 1000;
const WINDOWS = 6;
/** Post-merge slot time; only used to turn the block window into a start time for Etherscan. */
const BLOCK_S = 12;

/** What both sources give for a LiquidationCall log; an older RPC client leaves out the block time. */
export interface LiquidationLog {
  topics: string[];
  data: string;
  block: number;
  logIndex: number;
  txHash: string;
  at?: number;
}

const address = (word: string) => `0x${word.slice(-40)}`.toLowerCase();
const amount = (raw: bigint, asset: string) => {
  const reserve = RESERVES[asset];
  return reserve ? Number(raw) / 10 ** reserve.decimals : null;
};

/** Decodes LiquidationCall(collateralAsset, debtAsset, user indexed; debtToCover, liquidatedCollateralAmount, liquidator, receiveAToken). */
export function decodeLiquidation(log: LiquidationLog): Row {
  const words = log.data.slice(2).match(/.{64}/g) ?? [];
  if (log.topics.length < 4 || words.length < 4) throw new UpstreamError('upstream_bad_response', 'a LiquidationCall log without its four topics and four data words');
  const [collateral, debt, user] = log.topics.slice(1, 4).map(address) as [string, string, string];
  return {
    protocol: 'aave-v3',
    chain: 'ethereum',
    liquidated_at: log.at ?? null,
    user,
    liquidator: address(words[2]!),
    collateral_asset: collateral,
    collateral_symbol: RESERVES[collateral]?.symbol ?? null,
    collateral_amount: amount(BigInt(`0x${words[1]}`), collateral),
    debt_asset: debt,
    debt_symbol: RESERVES[debt]?.symbol ?? null,
    debt_amount: amount(BigInt(`0x${words[0]}`), debt),
    receive_a_token: BigInt(`0x${words[3]}`) !== 0n,
    tx_hash: log.txHash,
    block: log.block,
  };
}

/** The newest events first (block, then position in the block). */
export const newest = (logs: LiquidationLog[]): LiquidationLog[] =>
  [...logs].sort((a, b) => b.block - a.block || b.logIndex - a.logIndex).slice(0, MAX_EVENTS);

const aaveRows = (logs: LiquidationLog[]): Row[] => {
  if (logs.length === 0) throw noData('no Aave V3 liquidation on Ethereum in the last ~20 hours');
  return logs.map(decodeLiquidation);
};

// --- Ethereum JSON-RPC ---

const Rpc = <T extends TSchema>(result: T) =>
  Type.Object({ id: Type.Integer(), result: Type.Optional(result), error: Type.Optional(Type.Object({ message: Type.String() })) });
const Log = Type.Object({
  topics: Type.Array(Type.String()),
  data: Type.String(),
  blockNumber: Type.String(),
  logIndex: Type.String(),
  transactionHash: Type.String(),
  /** Newer nodes add the block time to each log (QuickNode documents it); others need a block lookup. */
  blockTimestamp: Type.Optional(Type.String()),
  removed: Type.Optional(Type.Boolean()),
});
const Head = Rpc(Type.String());
const LogsBatch = Type.Array(Rpc(Type.Array(Log)));
const BlocksBatch = Type.Array(Rpc(Type.Object({ number: Type.String(), timestamp: Type.String() })));
type Rpc<T> = { id: number; result?: T; error?: { message: string } };

function unwrap<T>(answer: Rpc<T>): T {
  if (answer.error) throw new UpstreamError('upstream_error', `eth-rpc: ${answer.error.message}`);
  if (answer.result === undefined) throw new UpstreamError('upstream_bad_response', 'eth-rpc answered without a result');
  return answer.result;
}

const hex = (n: number) => `0x${n.toString(16)}`;
const call = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params });

const post = <T>(http: HostHttp, body: unknown, schema: TSchema, deadline: number) =>
  http.json<T>('/', schema, { deadline, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export function fromRpcLogs(batch: Rpc<Type.Static<typeof Log>[]>[]): LiquidationLog[] {
  return batch.flatMap(unwrap).flatMap((l) =>
    l.removed
      ? []
      : [{ topics: l.topics, data: l.data, block: Number(l.blockNumber), logIndex: Number(l.logIndex), txHash: l.transactionHash, ...(l.blockTimestamp ? { at: Number(l.blockTimestamp) } : {}) }],
  );
}

export async function liquidationsViaRpc(http: HostHttp, deadline: number): Promise<Row[]> {
  const head = Number(unwrap(await post<Rpc<string>>(http, call(1, 'eth_blockNumber', []), Head, deadline)));
  const windows = Array.from({ length: WINDOWS }, (_, i) => {
    const to = head - i * WINDOW_BLOCKS;
    return call(i + 1, 'eth_getLogs', [{ address: AAVE_V3_POOL, topics: [LIQUIDATION_CALL_TOPIC], fromBlock: hex(to - WINDOW_BLOCKS + 1), toBlock: hex(to) }]);
  });
  const logs = newest(fromRpcLogs(await post<Rpc<Type.Static<typeof Log>[]>[]>(http, windows, LogsBatch, deadline)));
  const undated = [...new Set(logs.filter((l) => l.at === undefined).map((l) => l.block))];
  if (undated.length > 0) {
    const lookups = undated.map((block, i) => call(i + 1, 'eth_getBlockByNumber', [hex(block), false]));
    const blocks = (await post<Rpc<{ number: string; timestamp: string }>[]>(http, lookups, BlocksBatch, deadline)).map(unwrap);
    const times = new Map(blocks.map((b) => [Number(b.number), Number(b.timestamp)]));
    for (const log of logs) log.at ??= times.get(log.block);
  }
  return aaveRows(logs);
}

// --- Etherscan V2 (keyed) ---

const BlockByTime = Type.Object({ status: Type.String(), message: Type.String(), result: Type.String() });
const ScanLog = Type.Object({ topics: Type.Array(Type.String()), data: Type.String(), blockNumber: Type.String(), logIndex: Type.String(), transactionHash: Type.String(), timeStamp: Type.String() });
type ScanLog = Type.Static<typeof ScanLog>;

export async function liquidationsViaEtherscan(http: HostHttp, deadline: number, nowS: number): Promise<Row[]> {
  const since = nowS - WINDOWS * WINDOW_BLOCKS * BLOCK_S;
  const byTime = await http.json<Type.Static<typeof BlockByTime>>('/v2/api', BlockByTime, { deadline, query: { chainid: 1, module: 'block', action: 'getblocknobytime', timestamp: since, closest: 'before' } });
  if (byTime.status !== '1') etherscanList(byTime); // throws the reason Etherscan gave
  const block = byTime.result;
  const query = { chainid: 1, module: 'logs', action: 'getLogs', address: AAVE_V3_POOL, topic0: LIQUIDATION_CALL_TOPIC, fromBlock: block, toBlock: 'latest', page: 1, offset: 1000 };
  // Oldest first, at most 1,000: far more than ~20 hours of liquidations usually hold.
  const logs = etherscanList(await http.json<EnvelopeOf<ScanLog>>('/v2/api', Envelope(ScanLog), { deadline, query }));
  // Etherscan may write a zero index as a bare "0x".
  return aaveRows(newest(logs.map((l) => ({ topics: l.topics, data: l.data, block: Number(l.blockNumber), logIndex: Number(l.logIndex) || 0, txHash: l.transactionHash, at: Number(l.timeStamp) }))));
}
