import { invalidQ } from '../../core/errors.js';

/**
 * The documented EVM chains for `<chain>:<0x address>` types: EVM chain ids (GoPlus paths and
 * Etherscan V2 `chainid` share them), CoinGecko asset-platform ids, the native coin and its
 * CoinGecko coin id, with the accepted aliases.
 */
export const EVM_CHAINS = {
  ethereum: { id: 1, coingecko: 'ethereum', native: 'ETH', nativeCoingecko: 'ethereum', aliases: ['eth'] },
  bsc: { id: 56, coingecko: 'binance-smart-chain', native: 'BNB', nativeCoingecko: 'binancecoin', aliases: ['bnb'] },
  polygon: { id: 137, coingecko: 'polygon-pos', native: 'POL', nativeCoingecko: 'polygon-ecosystem-token', aliases: ['matic'] },
  arbitrum: { id: 42161, coingecko: 'arbitrum-one', native: 'ETH', nativeCoingecko: 'ethereum', aliases: [] },
  optimism: { id: 10, coingecko: 'optimistic-ethereum', native: 'ETH', nativeCoingecko: 'ethereum', aliases: ['op'] },
  gnosis: { id: 100, coingecko: 'xdai', native: 'XDAI', nativeCoingecko: 'xdai', aliases: [] },
  base: { id: 8453, coingecko: 'base', native: 'ETH', nativeCoingecko: 'ethereum', aliases: [] },
  avalanche: { id: 43114, coingecko: 'avalanche', native: 'AVAX', nativeCoingecko: 'avalanche-2', aliases: ['avax'] },
  fantom: { id: 250, coingecko: 'fantom', native: 'FTM', nativeCoingecko: 'fantom', aliases: [] },
  linea: { id: 59144, coingecko: 'linea', native: 'ETH', nativeCoingecko: 'ethereum', aliases: [] },
  zksync: { id: 324, coingecko: 'zksync', native: 'ETH', nativeCoingecko: 'ethereum', aliases: [] },
  cronos: { id: 25, coingecko: 'cronos', native: 'CRO', nativeCoingecko: 'crypto-com-chain', aliases: [] },
} as const satisfies Record<string, { id: number; coingecko: string; native: string; nativeCoingecko: string; aliases: readonly string[] }>;

export type EvmChain = keyof typeof EVM_CHAINS;
export const ALL_EVM_CHAINS = Object.keys(EVM_CHAINS) as EvmChain[];

export interface EvmTarget {
  chain: EvmChain;
  /** EVM chain id of `chain`. */
  chainId: number;
  /** Lower-cased `0x` + 40 hex. */
  address: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const byName = new Map(Object.entries(EVM_CHAINS).flatMap(([name, c]) => [name, ...c.aliases].map((n) => [n, name as EvmChain] as const)));

/** A strict `<chain>:<0x address>` parser over `chains` (default: every documented chain). */
export function evmTargetQ(shape: string, example: string, chains: readonly EvmChain[] = ALL_EVM_CHAINS) {
  const expected = `${shape} with chain one of ${chains.join(', ')} and a 0x + 40 hex address`;
  return (q: string): EvmTarget => {
    const [name = '', address = '', ...rest] = q.split(':');
    const chain = byName.get(name.trim().toLowerCase());
    if (!chain || !chains.includes(chain)) throw invalidQ(expected, example, q ? `"${name}" is not a supported chain` : 'q is required');
    if (rest.length || !ADDRESS.test(address.trim())) throw invalidQ(expected, example, 'the address must be 0x followed by 40 hex digits');
    return { chain, chainId: EVM_CHAINS[chain].id, address: address.trim().toLowerCase() };
  };
}

/** Canonical q: aliases and letter case collapse, so `eth:0xAB…` and `ethereum:0xab…` share a cache entry. */
export const evmKey = ({ chain, address }: EvmTarget): string => `${chain}:${address}`;
