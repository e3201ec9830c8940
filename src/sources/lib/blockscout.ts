import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import type { HostName } from '../../upstream/hosts.js';
import type { EvmChain } from './evm-chains.js';

/** Keyless Blockscout explorers, one host each. */
export const BLOCKSCOUT_HOSTS: Partial<Record<EvmChain, HostName>> = {
  ethereum: 'blockscout', base: 'blockscout-base', optimism: 'blockscout-optimism', arbitrum: 'blockscout-arbitrum', gnosis: 'blockscout-gnosis',
};

const Head = Type.Object({ result: Type.String() });

/** The chain head from the Etherscan-style RPC route (`eth_blockNumber` as hex). */
export async function blockscoutHead(http: HostHttp, deadline: number): Promise<number> {
  const head = await http.json<Type.Static<typeof Head>>('/api', Head, { deadline, query: { module: 'block', action: 'eth_block_number' } });
  return Number(BigInt(head.result));
}
