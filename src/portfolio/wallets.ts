import Type from 'typebox';
import { ApiError } from '../core/errors.js';
import type { UpstreamClient } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import { BLOCKSCOUT_HOSTS } from '../sources/lib/blockscout.js';
import { EVM_CHAINS, evmTargetQ, type EvmChain, type EvmTarget } from '../sources/lib/evm-chains.js';

/**
 * Read-only wallet balances from the keyless Blockscout explorers' Etherscan-compatible RPC API
 * (https://docs.blockscout.com/devs/apis/rpc/account): `module=account&action=balance` for the
 * native coin and `action=tokenlist` for ERC-20 balances. Nothing is signed or sent: svc only reads.
 */
export const WALLET_CHAINS = Object.keys(BLOCKSCOUT_HOSTS) as EvmChain[];
export const parseWallet = evmTargetQ('<chain>:<wallet_address>', 'ethereum:0xd8da6bf26964af9d7eed9e03e53415d37aa96045', WALLET_CHAINS);

const Balance = Type.Object({ status: Type.String(), message: Type.String(), result: Type.Union([Type.String(), Type.Null()]) });
const TokenList = Type.Object({
  status: Type.String(),
  message: Type.String(),
  result: Type.Union([
    Type.Array(
      Type.Object({
        balance: Type.String(),
        contractAddress: Type.String(),
        decimals: Type.String(),
        name: Type.String(),
        symbol: Type.String(),
        type: Type.String(),
      }),
    ),
    Type.Null(),
  ]),
});
type TokenList = Type.Static<typeof TokenList>;
type Balance = Type.Static<typeof Balance>;

export interface WalletAsset {
  symbol: string;
  name: string | null;
  /** `<chain>:<address>` for tokens; absent for the native coin. */
  contract?: string;
  quantity: number;
}

const DEADLINE_MS = 8000;

/** A base-unit integer string scaled by 10^decimals (exact enough for display and valuation). */
export const scaled = (units: string, decimals: number): number => Number(BigInt(units)) / 10 ** decimals;

export class WalletReader {
  constructor(private readonly upstream: UpstreamClient) {}

  /** The native coin and every non-zero ERC-20 balance of the wallet. */
  async assets(wallet: string, field: string): Promise<WalletAsset[]> {
    let target: EvmTarget;
    try {
      target = parseWallet(wallet);
    } catch (e) {
      throw e instanceof ApiError ? new ApiError('validation_failed', `${field}: ${e.message}`, { field, chains: WALLET_CHAINS }) : e;
    }
    const http = this.upstream.host(BLOCKSCOUT_HOSTS[target.chain]!);
    const query = (action: string) => ({
      deadline: Date.now() + DEADLINE_MS,
      query: { module: 'account', action, address: target.address },
    });
    try {
      const [native, tokens] = await Promise.all([
        http.json<Balance>('/api', Balance, query('balance')),
        http.json<TokenList>('/api', TokenList, query('tokenlist')),
      ]);
      const coin = EVM_CHAINS[target.chain].native;
      const nativeAsset = native.status === '1' && native.result ? [{ symbol: coin, name: null, quantity: scaled(native.result, 18) }] : [];
      const erc20 = (tokens.result ?? []).filter(
        (t) => t.type === 'ERC-20' && /^\d+$/.test(t.balance) && /^\d+$/.test(t.decimals) && BigInt(t.balance) > 0n,
      );
      return [
        ...nativeAsset,
        ...erc20.map((t) => ({
          symbol: t.symbol,
          name: t.name || null,
          contract: `${target.chain}:${t.contractAddress.toLowerCase()}`,
          quantity: scaled(t.balance, Number(t.decimals)),
        })),
      ];
    } catch (e) {
      if (e instanceof UpstreamError)
        throw new ApiError('upstream_unavailable', `${field}: the chain explorer did not answer (${e.reason})`, {
          field,
          reason: e.reason,
        });
      throw e;
    }
  }
}
