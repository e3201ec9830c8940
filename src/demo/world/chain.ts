import { roundTo } from '../../core/numbers.js';
import { LIQUIDATION_CALL_TOPIC } from '../../sources/lib/aave-v3-events.js';
import { AAVE_V3_POOL } from '../../sources/lib/aave-v3-ethereum.js';
import { BLOCKSCOUT_HOSTS } from '../../sources/lib/blockscout.js';
import { between, hex, intBetween, own, pick } from '../random.js';
import type { DemoWorld } from '../world.js';
import type { Route, WorldRequest } from './types.js';
import { blockAt, blockTime, hexOf } from './chain-clock.js';
import { coinBySymbol } from './coins.js';
import { blockscoutAccount, contractSource, etherscanItems, tokenSecurity, transfers } from './wallets.js';

/**
 * Ethereum in the demo world: the chain head follows the clock (a block every 12 s), the base fee walks, Aave V3
 * liquidations happen every few blocks' slot, and Etherscan, a JSON-RPC node, Blockscout and zeromev answer about the
 * same blocks. Wallet transfers, contract sources and token scans come from wallets.ts.
 */
const LIQUIDATION_SLOT_BLOCKS = 100;
const COLLATERAL = ['WETH', 'WBTC', 'LINK', 'USDC'];
const DEBT = ['USDC', 'USDT', 'DAI', 'WETH'];
const word = (hexDigits: string) => hexDigits.padStart(64, '0');

/** Base fee and the three tips (gwei) of the block at `t`. */
function gas(world: DemoWorld, t: number) {
  const base = world.market.price('gas:ETH', t);
  const tip = (k: string, min: number, max: number) => between(world.seed, `tip:${k}@${blockAt(t)}`, min, max);
  return { base, safe: base + tip('safe', 0.01, 0.05), propose: base + tip('propose', 0.05, 0.3), fast: base + tip('fast', 0.5, 1.5) };
}

function gasOracle(world: DemoWorld, nowS: number): unknown {
  const { base, safe, propose, fast } = gas(world, nowS);
  const fixed = (n: number) => roundTo(n, 3).toString();
  const ratios = Array.from({ length: 5 }, (_, i) => roundTo(between(world.seed, `used:${blockAt(nowS) - i}`, 0.1, 1), 2)).join(',');
  return {
    status: '1',
    message: 'OK',
    result: {
      LastBlock: String(blockAt(nowS)),
      SafeGasPrice: fixed(safe),
      ProposeGasPrice: fixed(propose),
      FastGasPrice: fixed(fast),
      suggestBaseFee: fixed(base),
      gasUsedRatio: ratios,
    },
  };
}

interface Liquidation {
  block: number;
  logIndex: number;
  topics: string[];
  data: string;
  txHash: string;
}

/** The Aave V3 LiquidationCall events in blocks [from, to]: at most one per 100-block slot, sized $2k–$2M. */
function liquidations(world: DemoWorld, from: number, to: number): Liquidation[] {
  const { seed, market } = world;
  const out: Liquidation[] = [];
  for (let slot = Math.floor(from / LIQUIDATION_SLOT_BLOCKS); slot <= Math.floor(to / LIQUIDATION_SLOT_BLOCKS); slot++) {
    if (intBetween(seed, `liq:${slot}`, 0, 1) === 0) continue;
    const block = slot * LIQUIDATION_SLOT_BLOCKS + intBetween(seed, `liq-block:${slot}`, 0, LIQUIDATION_SLOT_BLOCKS - 1);
    if (block < from || block > to) continue;
    const collateral = pick(seed, `liq-coll:${slot}`, COLLATERAL);
    const debt = pick(
      seed,
      `liq-debt:${slot}`,
      DEBT.filter((d) => d !== collateral),
    );
    const usd = Math.exp(between(seed, `liq-usd:${slot}`, Math.log(2_000), Math.log(2_000_000)));
    const at = blockTime(block);
    const units = (symbol: string, value: number) => {
      const decimals = own({ USDC: 6, USDT: 6, WBTC: 8 }, symbol) ?? 18;
      return (BigInt(Math.round((value / market.usd(symbol, at)) * 1e6)) * 10n ** BigInt(decimals - 6)).toString(16);
    };
    const contract = (symbol: string) => coinBySymbol(market, symbol)!.contracts.ethereum!.slice(2);
    out.push({
      block,
      logIndex: intBetween(seed, `liq-index:${slot}`, 0, 300),
      topics: [
        LIQUIDATION_CALL_TOPIC,
        `0x${word(contract(collateral))}`,
        `0x${word(contract(debt))}`,
        `0x${word(hex(seed, `liq-user:${slot}`, 40))}`,
      ],
      data: `0x${word(units(debt, usd))}${word(units(collateral, usd * 1.05))}${word(hex(seed, `liq-by:${slot}`, 40))}${word('0')}`,
      txHash: `0x${hex(seed, `liq-tx:${slot}`, 64)}`,
    });
  }
  return out;
}

const rpcLog = (l: Liquidation) => ({
  address: AAVE_V3_POOL,
  topics: l.topics,
  data: l.data,
  blockNumber: hexOf(l.block),
  transactionHash: l.txHash,
  transactionIndex: hexOf(l.logIndex % 200),
  blockHash: `0x${l.txHash.slice(2, 10).repeat(8)}`,
  blockTimestamp: hexOf(blockTime(l.block)),
  logIndex: hexOf(l.logIndex),
  removed: false,
});

/** One JSON-RPC call at the chain head of `nowS`. */
function rpcAnswer(world: DemoWorld, call: { id?: unknown; method?: string; params?: unknown[] }, nowS: number): unknown {
  const head = blockAt(nowS);
  const at = (tag: unknown) => (tag === 'latest' || tag === undefined ? head : Math.min(head, Number(tag)));
  const answer = (result: unknown) => ({ jsonrpc: '2.0', id: call.id ?? 1, result });
  switch (call.method) {
    case 'eth_blockNumber':
      return answer(hexOf(head));
    case 'eth_getLogs': {
      const filter = (call.params?.[0] ?? {}) as { address?: string; fromBlock?: string; toBlock?: string };
      if (filter.address?.toLowerCase() !== AAVE_V3_POOL) return answer([]);
      return answer(liquidations(world, at(filter.fromBlock), at(filter.toBlock)).map(rpcLog));
    }
    case 'eth_getBlockByNumber': {
      const number = at(call.params?.[0]);
      return answer({ number: hexOf(number), timestamp: hexOf(blockTime(number)), hash: `0x${hex(world.seed, `block:${number}`, 64)}` });
    }
    case 'eth_feeHistory': {
      const count = Number(call.params?.[0] ?? 20);
      const blocks = Array.from({ length: count + 1 }, (_, i) => head - count + 1 + i);
      const wei = (gwei: number) => hexOf(Math.round(gwei * 1e9));
      const fees = blocks.map((b) => gas(world, blockTime(b)));
      return answer({
        oldestBlock: hexOf(blocks[0]!),
        baseFeePerGas: fees.map((f) => wei(f.base)),
        gasUsedRatio: fees.slice(1).map(() => 0.5),
        reward: fees.slice(1).map((f) => [wei(f.safe - f.base), wei(f.propose - f.base), wei(f.fast - f.base)]),
      });
    }
    default:
      return { jsonrpc: '2.0', id: call.id ?? 1, error: { code: -32601, message: 'the method does not exist/is not available' } };
  }
}

function jsonRpc(req: WorldRequest, world: DemoWorld): unknown {
  const body = JSON.parse(req.body || '{}') as unknown;
  return Array.isArray(body) ? body.map((call) => rpcAnswer(world, call as object, req.nowS)) : rpcAnswer(world, body as object, req.nowS);
}

const envelope = (result: unknown[]) =>
  result.length ? { status: '1', message: 'OK', result } : { status: '0', message: 'No transactions found', result: [] };

/** Etherscan V2 answers every module on one path; a module this world does not model falls back to the fixtures. */
function etherscan(req: WorldRequest, world: DemoWorld): unknown {
  const p = (k: string) => req.params.get(k) ?? '';
  const count = Math.min(Number(p('offset') || 100), 1000);
  switch (`${p('module')}/${p('action')}`) {
    case 'gastracker/gasoracle':
      return gasOracle(world, req.nowS);
    case 'account/tokentx': {
      const [address, kind] = p('contractaddress') ? [p('contractaddress'), 'token' as const] : [p('address'), 'own' as const];
      return envelope(etherscanItems(transfers(world, address.toLowerCase(), kind, req.nowS, count), req.nowS, false));
    }
    case 'account/txlist':
      return envelope(etherscanItems(transfers(world, p('address').toLowerCase(), 'native', req.nowS, count), req.nowS, true));
    case 'contract/getsourcecode':
      return { status: '1', message: 'OK', result: [contractSource(world, p('address').toLowerCase(), req.nowS)] };
    case 'block/getblocknobytime':
      return { status: '1', message: 'OK', result: String(blockAt(Math.min(Number(p('timestamp')), req.nowS))) };
    case 'logs/getLogs': {
      const from = Number(p('fromBlock'));
      const to = p('toBlock') === 'latest' ? blockAt(req.nowS) : Number(p('toBlock'));
      const logs = liquidations(world, from, to).map((l) => ({
        ...rpcLog(l),
        blockNumber: hexOf(l.block),
        timeStamp: hexOf(blockTime(l.block)),
      }));
      return envelope(logs);
    }
    default:
      return undefined;
  }
}

/** zeromev's MEV transactions of blocks [block_number, +count): the fixture's window moved onto the asked blocks. */
function mevBlocks(req: WorldRequest, world: DemoWorld): unknown {
  const first = Number(req.params.get('block_number'));
  const template = world.template<{ block_number: number }[]>('zeromev', '/v1/mevBlock', req.nowS);
  const templateFirst = Math.min(...template.map((t) => t.block_number));
  const head = blockAt(req.nowS);
  return template.map((t) => ({ ...t, block_number: t.block_number - templateFirst + first })).filter((t) => t.block_number <= head);
}

/** Blockscout's RPC-style `/api` on every chain's explorer: the chain head and wallet balances. */
const blockscoutRpc =
  (chain: string) =>
  (req: WorldRequest, world: DemoWorld): unknown => {
    const p = (k: string) => req.params.get(k) ?? '';
    if (p('action') === 'eth_block_number') return { jsonrpc: '2.0', result: hexOf(blockAt(req.nowS)), id: 1 };
    return p('module') === 'account' ? blockscoutAccount(world, chain, p('action'), p('address'), req.nowS) : undefined;
  };

export const CHAIN_ROUTES: Route[] = [
  { host: 'etherscan', path: /^\/v2\/api$/, answer: etherscan },
  { host: 'eth-rpc', method: 'POST', path: /^\/$/, answer: jsonRpc },
  ...Object.entries(BLOCKSCOUT_HOSTS).map(([chain, host]) => ({ host, path: /^\/api$/, answer: blockscoutRpc(chain) })),
  { host: 'zeromev', path: /^\/v1\/mevBlock$/, answer: mevBlocks },
  {
    host: 'gopluslabs',
    path: /^\/api\/v1\/token_security\/1$/,
    answer: (req, world) => tokenSecurity(world, (req.params.get('contract_addresses') ?? '').toLowerCase().split(','), req.nowS),
  },
];
