/** Aave V3 Pool on Ethereum: the LiquidationCall event, its decoding, and the main reserves' token metadata. */

import { UpstreamError } from '../../upstream/errors.js';
import type { Row } from '../define.js';

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

/**
 * Decodes LiquidationCall(collateralAsset, debtAsset, user indexed;
 * debtToCover, liquidatedCollateralAmount, liquidator, receiveAToken).
 */
export function decodeLiquidation(log: LiquidationLog): Row {
  const words = log.data.slice(2).match(/.{64}/g) ?? [];
  if (log.topics.length < 4 || words.length < 4) {
    throw new UpstreamError('upstream_bad_response', 'a LiquidationCall log without its four topics and four data words');
  }
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
