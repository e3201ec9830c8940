import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import source, { fromOkx, parseProtocol } from '../../src/sources/liquidations.js';
import { fromRpcLogs, newest } from '../../src/sources/lib/aave-v3-ethereum.js';
import { decodeLiquidation, type LiquidationLog } from '../../src/sources/lib/aave-v3-events.js';
import type { FetchContext } from '../../src/sources/define.js';
import type { HostHttp } from '../../src/upstream/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const word = (n: bigint | string) => (typeof n === 'string' ? n.replace(/^0x/, '') : n.toString(16)).padStart(64, '0');
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const UNLISTED = '0x1111111111111111111111111111111111111111';
const USER = '0x2222222222222222222222222222222222222222';
const liquidation = (
  collateral: string,
  debt: string,
  debtAmount: bigint,
  collateralAmount: bigint,
  block = 100,
  logIndex = 0,
): LiquidationLog => ({
  topics: [
    '0xe413a321e8681d831f4dbccbca790d2952b56f977908e45be37335533e005286',
    `0x${word(collateral)}`,
    `0x${word(debt)}`,
    `0x${word(USER)}`,
  ],
  data: `0x${word(debtAmount)}${word(collateralAmount)}${word('0x3333333333333333333333333333333333333333')}${word(1n)}`,
  block,
  logIndex,
  txHash: `0x${'ab'.repeat(32)}`,
});

describe('liquidations q', () => {
  it('maps protocol names and aliases, case-insensitively', () => {
    expect(['aave', 'AAVE-V3', ' okx '].map(parseProtocol)).toEqual(['aave-v3', 'aave-v3', 'okx']);
  });
  it('refuses protocols without a public feed, naming the ones it has', () => {
    for (const q of ['', 'binance', 'bybit', 'aave-v2']) expect(() => parseProtocol(q)).toThrow(/one of: aave, aave-v3, okx/);
  });
});

describe('Aave LiquidationCall decoding', () => {
  it('reads the indexed addresses, the amounts in token units and the flags', () => {
    const row = decodeLiquidation({ ...liquidation(WETH, USDC, 1_234_567_890n, 5n * 10n ** 17n), at: 1795000000 });
    expect(row).toEqual({
      protocol: 'aave-v3',
      chain: 'ethereum',
      liquidated_at: 1795000000,
      user: USER,
      liquidator: '0x3333333333333333333333333333333333333333',
      collateral_asset: WETH,
      collateral_symbol: 'WETH',
      collateral_amount: 0.5,
      debt_asset: USDC,
      debt_symbol: 'USDC',
      debt_amount: 1234.56789,
      receive_a_token: true,
      tx_hash: `0x${'ab'.repeat(32)}`,
      block: 100,
    });
  });
  it('leaves symbol and amount null for a reserve it does not list, and the time null when unknown', () => {
    expect(decodeLiquidation(liquidation(UNLISTED, USDC, 1n, 7n))).toMatchObject({
      collateral_symbol: null,
      collateral_amount: null,
      collateral_asset: UNLISTED,
      liquidated_at: null,
    });
  });
  it('refuses a log that is not a LiquidationCall', () => {
    expect(() => decodeLiquidation({ ...liquidation(WETH, USDC, 1n, 1n), data: '0x00' })).toThrow(/four topics and four data words/);
  });
  it('keeps the 10 newest by block, then position in the block', () => {
    const logs = Array.from({ length: 12 }, (_, i) => liquidation(WETH, USDC, 1n, 1n, 100 + (i % 4), i));
    const picked = newest(logs);
    expect(picked).toHaveLength(10);
    expect(picked.slice(0, 3).map((l) => [l.block, l.logIndex])).toEqual([
      [103, 11],
      [103, 7],
      [103, 3],
    ]);
  });
  it('drops reorged logs and turns an RPC error in the batch into upstream_error', () => {
    const rpcLog = { topics: [], data: '0x', blockNumber: '0x10', logIndex: '0x2', transactionHash: '0x1' };
    expect(fromRpcLogs([{ id: 1, result: [rpcLog, { ...rpcLog, removed: true }] }])).toEqual([
      { topics: [], data: '0x', block: 16, logIndex: 2, txHash: '0x1' },
    ]);
    expect(() => fromRpcLogs([{ id: 1, error: { message: 'block range too large' } }])).toThrow(/block range too large/);
  });
});

describe('Aave over an RPC without log timestamps', () => {
  it('looks the block times up in one batch', async () => {
    const log = {
      topics: liquidation(WETH, USDC, 1n, 1n).topics,
      data: liquidation(WETH, USDC, 1n, 1n).data,
      blockNumber: '0x64',
      logIndex: '0x0',
      transactionHash: '0xaa',
    };
    const answers: Record<string, unknown> = {
      eth_blockNumber: { id: 1, result: '0x64' },
      eth_getLogs: [{ id: 1, result: [log] }],
      eth_getBlockByNumber: [{ id: 1, result: { number: '0x64', timestamp: '0x6a000000' } }],
    };
    const calls: string[] = [];
    // JSON-RPC names its method in the body (a single call or the first of a batch).
    const methodOf = (body: string) => [JSON.parse(body)].flat()[0].method as string;
    const http = {
      name: 'eth-rpc',
      json: async (_p: string, _s: unknown, o: { body: string }) => (calls.push(methodOf(o.body)), answers[methodOf(o.body)]),
    } as unknown as HostHttp;
    const ctx = { http, deadline: Date.now() + 1000, clock: new ManualClock() } as unknown as FetchContext;
    const rows = await source.upstreams['eth-rpc']!('aave-v3', ctx);
    expect(calls).toEqual(['eth_blockNumber', 'eth_getLogs', 'eth_getBlockByNumber']);
    expect(rows[0]).toMatchObject({ liquidated_at: 0x6a000000, block: 100 });
  });
});

describe('OKX liquidation orders', () => {
  const order = (side: string, posSide: string, ts: string) => ({ side, posSide, bkPx: '97000.5', sz: '12', bkLoss: '0', ts });
  const raw = (details: ReturnType<typeof order>[]) => ({ code: '0', msg: '', data: [{ instId: 'BTC-USDT-SWAP', details }] });

  it('names the liquidated side (from posSide, or from side in one-way mode), newest first, ms → s', () => {
    const rows = fromOkx(
      raw([order('sell', 'long', '1795000000123'), order('buy', 'net', '1795000100999'), order('sell', 'net', '1794999000000')]),
    );
    expect(rows.map((r) => [r.liquidated_at, r.position_side])).toEqual([
      [1795000100, 'short'],
      [1795000000, 'long'],
      [1794999000, 'long'],
    ]);
    expect(rows[0]).toEqual({
      protocol: 'okx',
      instrument: 'BTC-USDT-SWAP',
      liquidated_at: 1795000100,
      position_side: 'short',
      bankruptcy_price: 97000.5,
      size_contracts: 12,
      bankruptcy_loss: 0,
    });
  });
  it('maps OKX error codes and an empty list', () => {
    expect(() => fromOkx({ code: '50011', msg: 'Too Many Requests', data: [] })).toThrow(/Too Many Requests/);
    expect(() => fromOkx({ code: '51000', msg: 'Parameter instFamily error', data: [] })).toThrow(/51000/);
    expect(() => fromOkx(raw([]))).toThrow(/no filled/);
  });
});

describe('routing by protocol', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('asks OKX, and only OKX, for q=okx', async () => {
    t.sim.serve({
      host: 'okx',
      path: '/api/v5/public/liquidation-orders',
      query: { instType: 'SWAP', instFamily: 'BTC-USDT' },
      body: {
        code: '0',
        msg: '',
        data: [
          {
            instFamily: 'BTC-USDT',
            instId: 'BTC-USDT-SWAP',
            instType: 'SWAP',
            uly: 'BTC-USDT',
            details: [{ side: 'sell', posSide: 'long', bkPx: '96500.1', sz: '3', bkLoss: '0', ccy: '', ts: '1795348000000' }],
          },
        ],
      },
    });
    t.sim.resetHits();
    const result = await t.deps.sources.run('liquidations', 'OKX', { maxAgeS: 0 });
    expect(result).toMatchObject({
      ok: true,
      source: 'okx',
      rows: [{ protocol: 'okx', liquidated_at: 1795348000, position_side: 'long', bankruptcy_price: 96500.1 }],
    });
    expect(t.sim.hits('eth-rpc') + t.sim.hits('etherscan')).toBe(0);
  });
});
