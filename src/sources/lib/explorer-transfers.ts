import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import { UpstreamError } from '../../upstream/errors.js';
import { Envelope, etherscanList, type EnvelopeOf } from './etherscan.js';
import type { EvmTarget } from './evm-chains.js';
import { parseUnixSeconds } from '../../core/clock.js';

/** Explorers answer the newest first; one page of them is "recent". */
const PAGE = 100;

/** One transfer of an ERC-20 token or of the native coin, normalized from either explorer. */
export interface Transfer {
  /** Dedup key: one log entry (or one native transaction). */
  id: string;
  tx_hash: string;
  transferred_at: number;
  from: string;
  to: string;
  /** null for the chain's native coin. */
  token_address: string | null;
  token_symbol: string;
  /** Raw integer text in the token's smallest unit. */
  value: string;
  decimals: number;
  price_usd: number | null;
}

/** USD prices keyed by lower-cased contract or coin id. */
export type Prices = Record<string, { usd?: number }>;

// Etherscan V2 account module.
const TokenTx = Type.Object({
  timeStamp: Type.String(), hash: Type.String(), from: Type.String(), to: Type.String(), contractAddress: Type.String(),
  value: Type.String(), tokenSymbol: Type.String(), tokenDecimal: Type.String(),
});
type TokenTx = Type.Static<typeof TokenTx>;
const TokenTxResponse = Envelope(TokenTx);
/** `txlist` items: `value` in wei; `isError` "1" marks a reverted transaction that moved nothing. */
const NativeTx = Type.Object({ timeStamp: Type.String(), hash: Type.String(), from: Type.String(), to: Type.String(), value: Type.String(), isError: Type.String() });
type NativeTx = Type.Static<typeof NativeTx>;
const NativeTxResponse = Envelope(NativeTx);

export const fromEtherscan = (txs: TokenTx[], prices: Prices): Transfer[] =>
  txs.map((t) => ({
    id: `${t.hash}:${t.contractAddress}:${t.from}:${t.to}:${t.value}`.toLowerCase(),
    tx_hash: t.hash, transferred_at: Number(t.timeStamp), from: t.from.toLowerCase(), to: t.to.toLowerCase(),
    token_address: t.contractAddress.toLowerCase(), token_symbol: t.tokenSymbol, value: t.value, decimals: Number(t.tokenDecimal),
    price_usd: prices[t.contractAddress.toLowerCase()]?.usd ?? null,
  }));

/** Transactions that moved the native coin, unpriced (`txlist` carries no price). Contract creations have an empty `to`. */
export const fromTxlist = (txs: NativeTx[], symbol: string): Transfer[] =>
  txs.flatMap((t) =>
    t.isError === '0' && t.value !== '0' && t.to
      ? [{
          id: `${t.hash}:native`.toLowerCase(), tx_hash: t.hash, transferred_at: Number(t.timeStamp), from: t.from.toLowerCase(), to: t.to.toLowerCase(),
          token_address: null, token_symbol: symbol, value: t.value, decimals: 18, price_usd: null,
        }]
      : [],
  );

/** The latest page of the address's token transfers, of the token's own transfers (when it is one) and of its native transactions. */
export async function etherscanHistory(http: HostHttp, target: EvmTarget, deadline: number) {
  const page = { chainid: target.chainId, module: 'account', page: 1, offset: PAGE, sort: 'desc' };
  const tokentx = (by: Record<string, string>) =>
    http.json<EnvelopeOf<TokenTx>>('/v2/api', TokenTxResponse, { deadline, query: { ...page, action: 'tokentx', ...by } }).then(etherscanList);
  const [own, ofToken, nativeTxs] = await Promise.all([
    tokentx({ address: target.address }),
    tokentx({ contractaddress: target.address }),
    http.json<EnvelopeOf<NativeTx>>('/v2/api', NativeTxResponse, { deadline, query: { ...page, action: 'txlist', address: target.address } }).then(etherscanList),
  ]);
  return { tokenTxs: [...own, ...ofToken], nativeTxs };
}

// Blockscout v2.
const Party = Type.Object({ hash: Type.String() });
const TokenTransfer = Type.Object({
  // Documented examples show log_index both as a number and as text, and timestamp null before indexing.
  transaction_hash: Type.String(), log_index: Type.Union([Type.Integer(), Type.String()]), timestamp: Type.Union([Type.String(), Type.Null()]), from: Party, to: Party,
  token: Type.Object({
    address: Type.Optional(Type.String()), address_hash: Type.Optional(Type.String()), symbol: Type.Union([Type.String(), Type.Null()]),
    decimals: Type.Union([Type.String(), Type.Null()]), exchange_rate: Type.Union([Type.String(), Type.Null()]), type: Type.String(),
  }),
  total: Type.Object({ value: Type.Optional(Type.String()) }),
});
type TokenTransfer = Type.Static<typeof TokenTransfer>;
const Page = Type.Object({ items: Type.Array(TokenTransfer) });
/** Native-coin transactions; `exchange_rate` is the coin's USD price, `to` is null for contract creation. */
const Tx = Type.Object({
  hash: Type.String(), timestamp: Type.Union([Type.String(), Type.Null()]), from: Party, to: Type.Union([Party, Type.Null()]),
  value: Type.String(), exchange_rate: Type.Union([Type.String(), Type.Null()]), status: Type.Union([Type.String(), Type.Null()]),
});
type Tx = Type.Static<typeof Tx>;
const TxPage = Type.Object({ items: Type.Array(Tx) });

/** Only ERC-20 transfers have an amount; `token.address` is `address_hash` on newer Blockscout versions. */
export const fromBlockscout = (items: TokenTransfer[]): Transfer[] =>
  items.flatMap(({ token, total, timestamp, ...t }) =>
    token.type === 'ERC-20' && total.value && token.decimals !== null && timestamp
      ? [{
          id: `${t.transaction_hash}:${t.log_index}`, tx_hash: t.transaction_hash, transferred_at: parseUnixSeconds(timestamp),
          from: t.from.hash.toLowerCase(), to: t.to.hash.toLowerCase(), token_address: (token.address ?? token.address_hash ?? '').toLowerCase(),
          token_symbol: token.symbol ?? '', value: total.value, decimals: Number(token.decimals), price_usd: token.exchange_rate === null ? null : Number(token.exchange_rate),
        }]
      : [],
  );

/** Successful transactions that moved the native coin (18 decimals on every listed chain). */
export const fromBlockscoutTxs = (items: Tx[], symbol: string): Transfer[] =>
  items.flatMap((t) =>
    t.status === 'ok' && t.value !== '0' && t.timestamp && t.to
      ? [{
          id: `${t.hash}:native`, tx_hash: t.hash, transferred_at: parseUnixSeconds(t.timestamp), from: t.from.hash.toLowerCase(),
          to: t.to.hash.toLowerCase(), token_address: null, token_symbol: symbol, value: t.value, decimals: 18, price_usd: t.exchange_rate === null ? null : Number(t.exchange_rate),
        }]
      : [],
  );

/** The token route answers 404 for an address that is not a token: no transfers of it. */
const emptyOn404 = (e: unknown): { items: [] } => {
  if (e instanceof UpstreamError && e.info.status === 404) return { items: [] };
  throw e;
};

/** The latest page of token transfers and native-coin transactions of the address and, when it is a token, of that token. */
export async function blockscoutTransfers(http: HostHttp, address: string, nativeSymbol: string, deadline: number): Promise<Transfer[]> {
  const page = (path: string) => http.json<Type.Static<typeof Page>>(path, Page, { deadline }).catch(emptyOn404);
  const [own, ofToken, txs] = await Promise.all([
    page(`/api/v2/addresses/${address}/token-transfers`),
    page(`/api/v2/tokens/${address}/transfers`),
    http.json<Type.Static<typeof TxPage>>(`/api/v2/addresses/${address}/transactions`, TxPage, { deadline }),
  ]);
  return [...fromBlockscout([...own.items, ...ofToken.items]), ...fromBlockscoutTxs(txs.items, nativeSymbol)];
}
