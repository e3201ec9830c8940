import { between, hex, intBetween, own, pick, uniform } from '../random.js';
import type { DemoWorld } from '../world.js';
import { blockAt } from './chain-clock.js';
import { coinByContract, coins } from './coins.js';

/**
 * Wallets and contracts of the demo world on Ethereum: a seeded stream of ERC-20 and ether transfers for any address
 * (a whale moves a few every hour; a token contract's holders move it every few minutes), sized in USD and converted
 * at the world's price of the moment; verified contract sources and GoPlus scans from the fixtures' templates.
 */
const SLOT_S = 300;
const LOOKBACK_SLOTS = 2 * 288;
const DECIMALS: Record<string, number> = { USDT: 6, USDC: 6, PYUSD: 6, WBTC: 8 };
/** Tokens a wallet moves: by contract, with the world's symbol for the price. */
const WALLET_TOKENS = ['USDT', 'USDC', 'WETH', 'DAI', 'LINK', 'WBTC'];

export interface Transfer {
  at: number;
  hash: string;
  from: string;
  to: string;
  symbol: string;
  contract: string;
  decimals: number;
  units: bigint;
}

/** `amount` whole tokens in the token's smallest unit (exact to a millionth). */
const toUnits = (amount: number, decimals: number) =>
  decimals >= 6 ? BigInt(Math.round(amount * 1e6)) * 10n ** BigInt(decimals - 6) : BigInt(Math.round(amount * 10 ** decimals));

/**
 * The newest `count` transfers at or before `nowS`: of `address` (tokens or ether), or of the token whose contract it is.
 * `native` picks ether transfers of the address.
 */
export function transfers(world: DemoWorld, address: string, kind: 'own' | 'token' | 'native', nowS: number, count: number): Transfer[] {
  const { seed, market } = world;
  const token = kind === 'token' ? coinByContract(market, 'ethereum', address) : undefined;
  if (kind === 'token' && !token) return [];
  const perSlot = kind === 'token' ? [2, 6] : [0, 1];
  const out: Transfer[] = [];
  for (let slot = Math.floor(nowS / SLOT_S), n = 0; out.length < count && n < LOOKBACK_SLOTS; slot--, n++) {
    const where = `${address}/${kind}@${slot}`;
    for (let i = intBetween(seed, `count:${where}`, perSlot[0]!, perSlot[1]!) - 1; i >= 0 && out.length < count; i--) {
      const at = slot * SLOT_S + Math.floor(uniform(seed, `at:${where}/${i}`) * SLOT_S);
      if (at > nowS) continue;
      const symbol = kind === 'native' ? 'ETH' : (token?.symbol ?? pick(seed, `token:${where}/${i}`, WALLET_TOKENS));
      const decimals = kind === 'native' ? 18 : (own(DECIMALS, symbol) ?? 18);
      const usd = Math.exp(between(seed, `usd:${where}/${i}`, Math.log(5_000), Math.log(40_000_000)));
      const other = `0x${hex(seed, `party:${where}/${i}`, 40)}`;
      const outgoing = kind !== 'token' && uniform(seed, `dir:${where}/${i}`) < 0.5;
      const [from, to] =
        kind === 'token' ? [other, `0x${hex(seed, `party2:${where}/${i}`, 40)}`] : outgoing ? [address, other] : [other, address];
      const contract = kind === 'native' ? '' : (coins(market).find((c) => c.symbol === symbol)?.contracts.ethereum ?? '');
      out.push({
        at,
        hash: `0x${hex(seed, `tx:${where}/${i}`, 64)}`,
        from,
        to,
        symbol,
        contract,
        decimals,
        units: toUnits(usd / market.usd(symbol, at), decimals),
      });
    }
  }
  return out;
}

/** Etherscan `tokentx` / `txlist` items (newest first), with the fields the fixtures carry. */
export function etherscanItems(list: Transfer[], nowS: number, native: boolean): Record<string, string>[] {
  return list.map((t) => ({
    blockNumber: String(blockAt(t.at)),
    timeStamp: String(t.at),
    hash: t.hash,
    from: t.from,
    to: t.to,
    value: t.units.toString(),
    ...(native
      ? { isError: '0', txreceipt_status: '1', contractAddress: '', input: '0x', gas: '21000', gasUsed: '21000' }
      : {
          contractAddress: t.contract,
          tokenName: t.symbol,
          tokenSymbol: t.symbol,
          tokenDecimal: String(t.decimals),
          gas: '207128',
          gasUsed: '63209',
        }),
    confirmations: String(Math.max(1, blockAt(nowS) - blockAt(t.at))),
  }));
}

/**
 * Blockscout's Etherscan-compatible account API (`/api?module=account&action=balance|tokenlist`) for any address on
 * `chain`: a seeded native balance (in wei) and, for each wallet token with a contract on that chain, a seeded holding
 * worth $50 to $250,000 at the world's price of the moment; all values are strings, as Blockscout sends them.
 */
export function blockscoutAccount(world: DemoWorld, chain: string, action: string, address: string, nowS: number): unknown {
  const key = `${chain}:${address.toLowerCase()}`;
  if (action === 'balance')
    return { message: 'OK', result: toUnits(between(world.seed, `native:${key}`, 0.01, 40), 18).toString(), status: '1' };
  if (action !== 'tokenlist') return undefined;
  const held = coins(world.market).filter(
    (c) => WALLET_TOKENS.includes(c.symbol) && c.contracts[chain] && uniform(world.seed, `holds:${key}:${c.symbol}`) < 0.6,
  );
  const result = held.map((c) => {
    const decimals = own(DECIMALS, c.symbol) ?? 18;
    const usd = Math.exp(between(world.seed, `holding:${key}:${c.symbol}`, Math.log(50), Math.log(250_000)));
    const balance = toUnits(usd / world.market.usd(c.symbol, nowS), decimals).toString();
    return { balance, contractAddress: c.contracts[chain], decimals: String(decimals), name: c.name, symbol: c.symbol, type: 'ERC-20' };
  });
  return result.length ? { message: 'OK', result, status: '1' } : { message: 'No tokens found', result: [], status: '0' };
}

/** Known contracts that are not tokens, by what they are. */
const KNOWN_CONTRACTS: Record<string, string> = { '0x7a250d5630b4cf539739df2c5dacb4c659f2488d': 'UniswapV2Router02' };

const ROUTER_SOURCE = `pragma solidity =0.6.6;

interface IUniswapV2Router02 {
    function swapExactTokensForTokens(uint amountIn, uint amountOutMin, address[] calldata path, address to, uint deadline) external returns (uint[] memory amounts);
}

contract UniswapV2Router02 is IUniswapV2Router02 {
    address public immutable factory;
    address public immutable WETH;
}
`;

/** Etherscan `getsourcecode`: a token of the world verified like the template, a known router, or an unverified contract. */
export function contractSource(world: DemoWorld, address: string, nowS: number): Record<string, string> {
  const template = world.template<{ result: Record<string, string>[] }>('etherscan', '/v2/api', nowS, {
    module: 'contract',
    action: 'getsourcecode',
    address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  }).result[0]!;
  const coin = coinByContract(world.market, 'ethereum', address);
  if (coin) return { ...template, ContractName: `${coin.symbol}Token` };
  const known = KNOWN_CONTRACTS[address];
  if (known || uniform(world.seed, `verified:${address}`) < 0.6) {
    return {
      ...template,
      SourceCode: ROUTER_SOURCE,
      ABI: '[]',
      ContractName: known ?? `Contract${address.slice(2, 8)}`,
      CompilerVersion: 'v0.6.6+commit.6c089d02',
      Proxy: '0',
      Implementation: '',
      LicenseType: 'GNU GPLv3',
    };
  }
  return {
    ...template,
    SourceCode: '',
    ABI: 'Contract source code not verified',
    ContractName: '',
    CompilerVersion: '',
    Proxy: '0',
    Implementation: '',
  };
}

/** GoPlus token_security: the scan of a world token (the USDT template renamed), none for other addresses. */
export function tokenSecurity(world: DemoWorld, addresses: string[], nowS: number): unknown {
  const body = world.template<{ result: Record<string, Record<string, unknown>> }>('gopluslabs', '/api/v1/token_security/1', nowS, {
    contract_addresses: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  });
  const scan = Object.values(body.result)[0]!;
  const result = Object.fromEntries(
    addresses.flatMap((address) => {
      const coin = coinByContract(world.market, 'ethereum', address);
      if (!coin) return [];
      const flags =
        coin.symbol === 'USDT'
          ? {}
          : { transfer_pausable: coin.stable ? '1' : '0', is_blacklisted: coin.stable ? '1' : '0', is_mintable: coin.stable ? '1' : '0' };
      return [[address, { ...scan, ...flags, token_name: coin.name, token_symbol: coin.symbol, total_supply: String(coin.supply) }]];
    }),
  );
  return { ...body, result };
}
