import Type from 'typebox';
import { roundTo } from '../core/numbers.js';
import type { HostHttp } from '../upstream/client.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { BLOCKSCOUT_HOSTS, blockscoutTransfers } from './lib/blockscout.js';
import { etherscanHistory, fromEtherscan, fromTxlist, type Prices, type Transfer } from './lib/explorer-transfers.js';
import { EVM_CHAINS, evmKey, evmTargetQ, type EvmTarget } from './lib/evm-chains.js';

const TOP = 5;

/** CoinGecko prices keyed by lower-cased contract (token_price) or coin id (price); unknown ones are left out. */
const PriceMap = Type.Record(Type.String(), Type.Object({ usd: Type.Optional(Type.Number()) }));
const NO_PRICES: Prices = {};

/**
 * The largest transfers by their value at today's USD price (explorers and CoinGecko give current prices, not the
 * price at the time of each transfer). A token without a USD price is dropped: unpriced tokens are almost always spam
 * or airdrop look-alikes, and "large" cannot be judged without a price.
 */
export function topTransfers(address: string, transfers: Transfer[]): Row[] {
  const unique = [...new Map(transfers.map((t) => [t.id, t])).values()];
  const valued = unique.flatMap((t) => {
    // value × 10^-decimals written as one decimal literal: the same double as Number(formatUnits(…)) without loading viem.
    const amount = Number(`${BigInt(t.value)}e-${t.decimals}`);
    const valueUsd = t.price_usd === null ? 0 : roundTo(amount * t.price_usd, 2);
    return valueUsd > 0 ? [{ t, amount, valueUsd }] : [];
  });
  if (!valued.length) throw noData(`no priced transfers in the recent history of ${address}`);
  return valued
    .sort((a, b) => b.valueUsd - a.valueUsd || b.t.transferred_at - a.t.transferred_at)
    .slice(0, TOP)
    .map(({ t, amount, valueUsd }) => ({
      tx_hash: t.tx_hash,
      transferred_at: t.transferred_at,
      from: t.from,
      to: t.to,
      token_address: t.token_address,
      token_symbol: t.token_symbol,
      amount,
      price_usd_now: t.price_usd,
      value_usd_now: valueUsd,
      direction: t.to === address ? 'in' : t.from === address ? 'out' : null,
    }));
}

const prices = (coingecko: HostHttp, path: string, query: Record<string, string>, deadline: number) =>
  coingecko.json<Prices>(path, PriceMap, { deadline, query: { ...query, vs_currencies: 'usd' } });

/**
 * Rows: tx_hash, transferred_at (Unix s), from, to, token_address (null for the native coin), token_symbol, amount
 * (token units), price_usd_now (today's USD price of the token), value_usd_now (amount × today's price, not the value at
 * transfer time), direction (in/out relative to the address; null for transfers of the token the address is).
 * The top 5 by value_usd_now among the latest 100 ERC-20 transfers and native-coin transactions of the address and,
 * when it is a token, the latest 100 transfers of that token.
 */
export default defineSource<EvmTarget>({
  type: 'whale-tracker',
  categories: ['crypto', 'trader'],
  qShape: '<chain>:<address>',
  example: 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7',
  desc: "`<chain>:<address>`; top 5 recent transfers by their value at today's USD price",
  parseQ: evmTargetQ('<chain>:<address>', 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7'),
  keyOf: evmKey,
  ttlSeconds: 120,
  deadlineMs: 7000,
  upstreams: {
    etherscan: async (target, { http, upstream, deadline }) => {
      const { tokenTxs, nativeTxs } = await etherscanHistory(http, target, deadline);
      if (!tokenTxs.length && !nativeTxs.length) throw noData(`no transfers for ${target.address}`);
      const chain = EVM_CHAINS[target.chain];
      const contracts = [...new Set(tokenTxs.map((t) => t.contractAddress.toLowerCase()))];
      const native = fromTxlist(nativeTxs, chain.native);
      const coingecko = upstream('coingecko');
      const tokenPath = `/api/v3/simple/token_price/${chain.coingecko}`;
      const [tokenPrices, nativePrices] = await Promise.all([
        contracts.length ? prices(coingecko, tokenPath, { contract_addresses: contracts.join(',') }, deadline) : NO_PRICES,
        native.length ? prices(coingecko, '/api/v3/simple/price', { ids: chain.nativeCoingecko }, deadline) : NO_PRICES,
      ]);
      const nativeUsd = nativePrices[chain.nativeCoingecko]?.usd ?? null;
      const pricedNative = native.map((t) => ({ ...t, price_usd: nativeUsd }));
      return topTransfers(target.address, [...fromEtherscan(tokenTxs, tokenPrices), ...pricedNative]);
    },
    // Blockscout prices tokens and the native coin itself (`exchange_rate`), so no price call.
    blockscout: async (target, { upstream, deadline }) => {
      const host = BLOCKSCOUT_HOSTS[target.chain];
      // Without a keyless explorer for the chain, the Etherscan key is the only way in: say so.
      if (!host) throw new UpstreamError('upstream_key_missing', `no keyless explorer covers ${target.chain}: set UPSTREAM_ETHERSCAN_KEY`);
      const transfers = await blockscoutTransfers(upstream(host), target.address, EVM_CHAINS[target.chain].native, deadline);
      return topTransfers(target.address, transfers);
    },
  },
});
