import { roundSig, roundTo } from '../../core/numbers.js';
import { between, hex } from '../random.js';
import type { DemoWorld } from '../world.js';
import type { Route, WorldRequest } from './types.js';
import { coinByContract } from './coins.js';

/**
 * DeFi of the demo world: DEX pools quoting a token at the world's price plus a pool premium that walks (so spreads
 * between DEXs open and close), stablecoins at their world price, and lending and liquidity pools whose yields drift.
 */
const DAY_S = 86_400;

/** DexScreener pairs of a token: the template's pairs for WETH, repriced; a world token gets its own pairs; others none. */
function dexPairs(req: WorldRequest, world: DemoWorld): unknown {
  const [chain, address] = [req.match[1]!, req.match[2]!.toLowerCase()];
  const coin = coinByContract(world.market, chain, address);
  if (!coin) return [];
  const template = world.template<Record<string, unknown>[]>(
    'dexscreener',
    '/tokens/v1/ethereum/0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    req.nowS,
  );
  const at = req.nowS;
  return template.map((pair) => {
    const id = String(pair.pairAddress);
    const price = world.market.usd(coin.symbol, at) * (1 + world.market.price(`spread:${id}`, at));
    const base = { ...(pair.baseToken as object), address, name: coin.name, symbol: coin.symbol };
    const change = (windowS: number) => roundTo(world.market.change(`crypto:${coin.symbol}`, at, windowS) * 100, 2);
    const liquidity = pair.liquidity as { usd: number };
    return {
      ...pair,
      baseToken: base,
      priceNative: roundSig(price, 8).toString(),
      priceUsd: roundSig(price, 8).toString(),
      priceChange: { m5: change(300), h1: change(3600), h6: change(6 * 3600), h24: change(DAY_S) },
      liquidity: { ...liquidity, usd: roundTo(liquidity.usd * Math.exp(world.market.price(`spread:liq:${id}`, at) * 10), 2) },
    };
  });
}

/** DefiLlama's stablecoin list: every stablecoin at its world price (the peg walks a few basis points). */
function stablecoins(req: WorldRequest, world: DemoWorld): unknown {
  const body = world.template<{ peggedAssets: { symbol: string; pegType: string; price?: number }[] }>(
    'defillama-stablecoins',
    '/stablecoins',
    req.nowS,
    { includePrices: 'true' },
  );
  const at = Math.floor(req.nowS / 300) * 300;
  for (const asset of body.peggedAssets) {
    if (asset.pegType === 'peggedUSD') asset.price = roundTo(world.market.usd(asset.symbol.toUpperCase(), at), 4);
  }
  return body;
}

const POOLS: { project: string; chain: string; symbol: string; tvl: number; apy: number; exposure: 'single' | 'multi' }[] = [
  { project: 'aave-v3', chain: 'Ethereum', symbol: 'USDC', tvl: 1.5e9, apy: 4.2, exposure: 'single' },
  { project: 'aave-v3', chain: 'Ethereum', symbol: 'USDT', tvl: 1.2e9, apy: 4.6, exposure: 'single' },
  { project: 'aave-v3', chain: 'Ethereum', symbol: 'WETH', tvl: 2.1e9, apy: 1.9, exposure: 'single' },
  { project: 'aave-v3', chain: 'Ethereum', symbol: 'WBTC', tvl: 9e8, apy: 0.3, exposure: 'single' },
  { project: 'compound-v3', chain: 'Ethereum', symbol: 'USDC', tvl: 6e8, apy: 5.1, exposure: 'single' },
  { project: 'spark', chain: 'Ethereum', symbol: 'DAI', tvl: 1.1e9, apy: 5.5, exposure: 'single' },
  { project: 'morpho-blue', chain: 'Base', symbol: 'USDC', tvl: 3.5e8, apy: 6.4, exposure: 'single' },
  { project: 'lido', chain: 'Ethereum', symbol: 'STETH', tvl: 2.4e10, apy: 2.8, exposure: 'single' },
  { project: 'uniswap-v3', chain: 'Ethereum', symbol: 'USDC-WETH', tvl: 2.1e8, apy: 18.6, exposure: 'multi' },
  { project: 'uniswap-v3', chain: 'Ethereum', symbol: 'WBTC-WETH', tvl: 1.6e8, apy: 9.2, exposure: 'multi' },
  { project: 'curve-dex', chain: 'Ethereum', symbol: 'DAI-USDC-USDT', tvl: 1.7e8, apy: 2.1, exposure: 'multi' },
  { project: 'aerodrome-slipstream', chain: 'Base', symbol: 'WETH-USDC', tvl: 9e7, apy: 24.5, exposure: 'multi' },
];

/** DefiLlama yields: the world's pools in the template's shape, TVL and APY drifting day by day. */
function yieldPools(req: WorldRequest, world: DemoWorld): unknown {
  const body = world.template<{ data: Record<string, unknown>[] }>('defillama-yields', '/pools', req.nowS);
  const shape = body.data[0]!;
  const at = Math.floor(req.nowS / 3600) * 3600;
  const data = POOLS.map((p) => {
    const id = `${p.project}:${p.chain}:${p.symbol}`;
    const drift = (what: string) => Math.exp(world.market.price(`spread:${what}:${id}`, at) * 15);
    const apy = roundTo(p.apy * drift('apy'), 2);
    const stable = p.symbol.split('-').every((s) => ['USDC', 'USDT', 'DAI'].includes(s));
    const uuid = hex(world.seed, `pool:${id}`, 32).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
    return {
      ...shape,
      chain: p.chain,
      project: p.project,
      symbol: p.symbol,
      tvlUsd: Math.round(p.tvl * drift('tvl')),
      apyBase: apy,
      apyReward: null,
      apy,
      pool: uuid,
      stablecoin: stable,
      ilRisk: p.exposure === 'multi' && !stable ? 'yes' : 'no',
      exposure: p.exposure,
      apyPct1D: roundTo(between(world.seed, `d1:${id}@${at}`, -0.5, 0.5), 2),
      underlyingTokens: null,
      outlier: false,
    };
  });
  return { ...body, data };
}

export const DEFI_ROUTES: Route[] = [
  { host: 'dexscreener', path: /^\/tokens\/v1\/([a-z]+)\/(0x[0-9a-fA-F]{40})$/, answer: dexPairs },
  { host: 'defillama-stablecoins', path: /^\/stablecoins$/, answer: stablecoins },
  { host: 'defillama-yields', path: /^\/pools$/, answer: yieldPools },
];
