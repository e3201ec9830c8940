import type { HostHttp } from '../../upstream/client.js';
import { NativeTx, TokenTx } from '../../upstream/formats/etherscan-account.js';
import { Envelope, etherscanList, type EnvelopeOf } from './etherscan.js';
import type { EvmTarget } from './evm-chains.js';

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

const TokenTxResponse = Envelope(TokenTx);
const NativeTxResponse = Envelope(NativeTx);

export const fromEtherscan = (txs: TokenTx[], prices: Prices): Transfer[] =>
  txs.map((t) => ({
    id: `${t.hash}:${t.contractAddress}:${t.from}:${t.to}:${t.value}`.toLowerCase(),
    tx_hash: t.hash,
    transferred_at: Number(t.timeStamp),
    from: t.from.toLowerCase(),
    to: t.to.toLowerCase(),
    token_address: t.contractAddress.toLowerCase(),
    token_symbol: t.tokenSymbol,
    value: t.value,
    decimals: Number(t.tokenDecimal),
    price_usd: prices[t.contractAddress.toLowerCase()]?.usd ?? null,
  }));

/** What both explorers say about a transaction that moved the native coin. */
export interface NativeMove {
  /** Dedup key before `:native` (Etherscan's is lower-cased, Blockscout's as sent). */
  id: string;
  hash: string;
  at: number;
  from: string;
  to: string;
  value: string;
  price: number | null;
}

/** A transfer of the chain's native coin (18 decimals on every listed chain). */
export const nativeTransfer = (m: NativeMove, symbol: string): Transfer => ({
  id: `${m.id}:native`,
  tx_hash: m.hash,
  transferred_at: m.at,
  from: m.from.toLowerCase(),
  to: m.to.toLowerCase(),
  token_address: null,
  token_symbol: symbol,
  value: m.value,
  decimals: 18,
  price_usd: m.price,
});

/** Transactions that moved the native coin, unpriced (`txlist` carries no price). Contract creations have an empty `to`. */
export const fromTxlist = (txs: NativeTx[], symbol: string): Transfer[] =>
  txs.flatMap((t) => {
    if (t.isError !== '0' || t.value === '0' || !t.to) return [];
    const move = { id: t.hash.toLowerCase(), hash: t.hash, at: Number(t.timeStamp), from: t.from, to: t.to, value: t.value, price: null };
    return [nativeTransfer(move, symbol)];
  });

/** The latest page of the address's token transfers, of the token's own transfers (when it is one) and of its native transactions. */
export async function etherscanHistory(http: HostHttp, target: EvmTarget, deadline: number) {
  const page = { chainid: target.chainId, module: 'account', page: 1, offset: PAGE, sort: 'desc' };
  const tokentx = (by: Record<string, string>) => {
    const query = { ...page, action: 'tokentx', ...by };
    return http.json<EnvelopeOf<TokenTx>>('/v2/api', TokenTxResponse, { deadline, query }).then(etherscanList);
  };
  const txlist = { deadline, query: { ...page, action: 'txlist', address: target.address } };
  const [own, ofToken, nativeTxs] = await Promise.all([
    tokentx({ address: target.address }),
    tokentx({ contractaddress: target.address }),
    http.json<EnvelopeOf<NativeTx>>('/v2/api', NativeTxResponse, txlist).then(etherscanList),
  ]);
  return { tokenTxs: [...own, ...ofToken], nativeTxs };
}
