import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import { Rpc, rpcCall, rpcPost } from '../../upstream/formats/eth-rpc.js';

/** What a public JSON-RPC node says about an address without any explorer: is it a contract, a proxy, owned. */
export interface OnchainFacts {
  /** False for an address without code (a wallet, or nothing deployed). */
  has_code: boolean;
  is_proxy: boolean;
  /** The logic contract a standard proxy slot points at; null when none does (or the slot holds a beacon). */
  implementation: string | null;
  /** What `owner()` returns (the zero address when renounced); null when the contract has no such function. */
  owner: string | null;
}

/**
 * Storage slots where standard proxies keep their target: EIP-1967 implementation and beacon, and the older
 * OpenZeppelin (ZeppelinOS) implementation slot that USDC's FiatTokenProxy uses.
 */
const IMPLEMENTATION_SLOTS = [
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
];
const BEACON_SLOT = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
/** keccak256("owner()")[0..4]. */
const OWNER_SELECTOR = '0x8da5cb5b';

const Answers = Type.Array(Rpc(Type.String()));
const addressIn = (word: string | undefined): string | null =>
  word && /^0x0*[0-9a-fA-F]{40}$/.test(word) && BigInt(word) !== 0n ? `0x${word.slice(-40)}`.toLowerCase() : null;

/** One JSON-RPC batch: the code, the proxy slots and `owner()` of the address, at the latest block. */
export async function onchainFacts(http: HostHttp, address: string, deadline: number): Promise<OnchainFacts> {
  const batch = [
    rpcCall(1, 'eth_getCode', [address, 'latest']),
    ...IMPLEMENTATION_SLOTS.map((slot, i) => rpcCall(2 + i, 'eth_getStorageAt', [address, slot, 'latest'])),
    rpcCall(4, 'eth_getStorageAt', [address, BEACON_SLOT, 'latest']),
    rpcCall(5, 'eth_call', [{ to: address, data: OWNER_SELECTOR }, 'latest']),
  ];
  const answers = await rpcPost<Rpc<string>[]>(http, batch, Answers, deadline);
  const result = (id: number) => answers.find((a) => a.id === id)?.result;
  const implementation = addressIn(result(2)) ?? addressIn(result(3));
  const beacon = addressIn(result(4));
  const ownerWord = result(5);
  return {
    has_code: (result(1) ?? '0x') !== '0x',
    is_proxy: implementation !== null || beacon !== null,
    implementation,
    // A 32-byte word is an address (zero when renounced); a revert arrives as an error and leaves it null.
    owner: ownerWord && ownerWord.length === 66 ? `0x${ownerWord.slice(-40)}`.toLowerCase() : null,
  };
}
