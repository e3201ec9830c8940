import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import type { HostName } from '../../upstream/hosts.js';
import type { EvmChain } from './evm-chains.js';
import { UpstreamError } from '../../upstream/errors.js';
import { TransferPage, TxPage, type TokenTransfer, type Tx } from '../../upstream/formats/blockscout-v2.js';
import { parseUnixSeconds } from '../../core/clock.js';
import { nativeTransfer, type Transfer } from './explorer-transfers.js';

/** Keyless Blockscout explorers, one host each. */
export const BLOCKSCOUT_HOSTS: Partial<Record<EvmChain, HostName>> = {
  ethereum: 'blockscout',
  base: 'blockscout-base',
  optimism: 'blockscout-optimism',
  arbitrum: 'blockscout-arbitrum',
  gnosis: 'blockscout-gnosis',
};

const Head = Type.Object({ result: Type.String() });

/** The chain head from the Etherscan-style RPC route (`eth_blockNumber` as hex). */
export async function blockscoutHead(http: HostHttp, deadline: number): Promise<number> {
  const query = { module: 'block', action: 'eth_block_number' };
  const head = await http.json<Type.Static<typeof Head>>('/api', Head, { deadline, query });
  return Number(BigInt(head.result));
}

const rate = (text: string | null) => (text === null ? null : Number(text));

/** Only ERC-20 transfers have an amount. */
export const fromBlockscout = (items: TokenTransfer[]): Transfer[] =>
  items.flatMap(({ token, total, timestamp, ...t }) =>
    token.type === 'ERC-20' && total.value && token.decimals !== null && timestamp
      ? [
          {
            id: `${t.transaction_hash}:${t.log_index}`,
            tx_hash: t.transaction_hash,
            transferred_at: parseUnixSeconds(timestamp),
            from: t.from.hash.toLowerCase(),
            to: t.to.hash.toLowerCase(),
            token_address: (token.address ?? token.address_hash ?? '').toLowerCase(),
            token_symbol: token.symbol ?? '',
            value: total.value,
            decimals: Number(token.decimals),
            price_usd: rate(token.exchange_rate),
          },
        ]
      : [],
  );

/** Successful transactions that moved the native coin. */
export const fromBlockscoutTxs = (items: Tx[], symbol: string): Transfer[] =>
  items.flatMap((t) =>
    t.status === 'ok' && t.value !== '0' && t.timestamp && t.to
      ? [
          nativeTransfer(
            {
              id: t.hash,
              hash: t.hash,
              at: parseUnixSeconds(t.timestamp),
              from: t.from.hash,
              to: t.to.hash,
              value: t.value,
              price: rate(t.exchange_rate),
            },
            symbol,
          ),
        ]
      : [],
  );

/** The token route answers 404 for an address that is not a token: no transfers of it. */
const emptyOn404 = (e: unknown): { items: [] } => {
  if (e instanceof UpstreamError && e.info.status === 404) return { items: [] };
  throw e;
};

/** The latest page of token transfers and native-coin transactions of the address and, when it is a token, of that token. */
export async function blockscoutTransfers(http: HostHttp, address: string, nativeSymbol: string, deadline: number): Promise<Transfer[]> {
  const page = (path: string) => http.json<TransferPage>(path, TransferPage, { deadline }).catch(emptyOn404);
  const [own, ofToken, txs] = await Promise.all([
    page(`/api/v2/addresses/${address}/token-transfers`),
    page(`/api/v2/tokens/${address}/transfers`),
    http.json<TxPage>(`/api/v2/addresses/${address}/transactions`, TxPage, { deadline }),
  ]);
  return [...fromBlockscout([...own.items, ...ofToken.items]), ...fromBlockscoutTxs(txs.items, nativeSymbol)];
}
