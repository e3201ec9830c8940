import { between, own } from './random.js';

/**
 * The demo world's assets: a key per asset (`crypto:BTC`, `eq:AAPL`, `fx:EUR`, `cmd:XAU`, `idx:^GSPC`, `macro:DGS10` …),
 * the level its price reverts to, and how much it moves; WALKS are the world's other moving quantities (funding, weather).
 * Levels are round, plausible figures for a demo (not market data); an asset not listed gets a seeded level in its
 * class's range. Prices are in USD (FX: USD per unit of the currency).
 */
export interface AssetSpec {
  /** The level the walk reverts to. */
  level: number;
  /** Standard deviation of one day's move (of the log price, or of the value for `additive` assets). */
  dailyVol: number;
  /** Mean-reversion time in days. */
  reversionDays: number;
  /** Values that may cross zero (spreads, rates) move additively instead of in log space. */
  additive?: boolean;
  /** Growth of the level per year (price indexes, money supply), from 2026-01-01. */
  driftPerYear?: number;
}

const CRYPTO: Record<string, number> = {
  BTC: 90_000, ETH: 3_000, XRP: 2.2, BNB: 850, SOL: 140, DOGE: 0.16, ADA: 0.45, TRX: 0.28, AVAX: 14, LINK: 13, TON: 1.6,
  SHIB: 0.0000085, XLM: 0.24, DOT: 2.5, HBAR: 0.14, BCH: 520, SUI: 1.6, LTC: 85, UNI: 5.5, PEPE: 0.0000045, NEAR: 1.8,
  APT: 2.1, ICP: 3.5, ETC: 13, XMR: 400, AAVE: 180, RENDER: 1.8, MNT: 1.1, CRO: 0.1, VET: 0.013, ARB: 0.21, FIL: 1.6,
  OP: 0.32, ATOM: 2.4, ALGO: 0.13, INJ: 5.5, GRT: 0.045, IMX: 0.3, FET: 0.25, ONDO: 0.45, MKR: 1_500, LDO: 0.6,
  THETA: 0.35, OKB: 110, KAS: 0.05, TAO: 280, HYPE: 30, STX: 0.3, ENA: 0.25, JUP: 0.22, SEI: 0.13, BONK: 0.0000095,
  FLOKI: 0.00005, CRV: 0.38,
}; // prettier-ignore

const EQUITY: Record<string, number> = {
  AAPL: 270, MSFT: 480, NVDA: 180, AMZN: 230, GOOGL: 290, META: 600, 'BRK-B': 500, TSLA: 420, AVGO: 350, LLY: 1_000,
  JPM: 310, V: 330, UNH: 330, XOM: 115, MA: 560, JNJ: 200, PG: 150, HD: 360, COST: 920, WMT: 105, NFLX: 110, KO: 70,
  AMD: 240, ORCL: 220, INTC: 38, IBM: 300, DIS: 110, BA: 210, GS: 800, SPY: 670, QQQ: 600, IWM: 240, DIA: 470, BDRY: 9,
}; // prettier-ignore

const INDEX: Record<string, number> = {
  '^GSPC': 6_700, '^NDX': 24_500, '^DJI': 47_000, '^RUT': 2_400, '^VIX': 17, '^IXIC': 22_500, '^FTSE': 9_600,
  '^GDAXI': 23_500, '^N225': 49_000, '^HSI': 25_500, '^STOXX50E': 5_600, 'DX-Y.NYB': 99,
}; // prettier-ignore

/** USD per unit. */
const FX: Record<string, number> = {
  USD: 1, EUR: 1.16, GBP: 1.32, JPY: 0.0064, CHF: 1.25, CAD: 0.71, AUD: 0.65, CNY: 0.14, NZD: 0.57, SEK: 0.105, NOK: 0.099,
  MXN: 0.054, INR: 0.0113, BRL: 0.187, KRW: 0.00068, SGD: 0.77, HKD: 0.1286, TRY: 0.024, ZAR: 0.058, PLN: 0.27, DKK: 0.155,
  CZK: 0.048, HUF: 0.003, ILS: 0.3, ISK: 0.0079, RON: 0.23, BGN: 0.59, IDR: 0.00006, THB: 0.031, PHP: 0.017, MYR: 0.24,
}; // prettier-ignore

/** Futures and spot benchmarks by their usual symbols (USD; grains in US cents per bushel as CBOT quotes them). */
const COMMODITY: Record<string, number> = {
  XAU: 4_000, XAG: 50, XPT: 1_550, XPD: 1_400, HG: 5, CL: 60, BZ: 64, NG: 4.5, HO: 2.3, RB: 2, ZW: 540, ZC: 430, ZS: 1_120,
  KC: 380, SB: 15, CC: 5_500, CT: 64, ZR: 12, BDI: 1_800,
}; // prettier-ignore

/** FRED series (percent, index points, thousands or billions as FRED states them) that are not another asset's price. */
const MACRO: Record<string, AssetSpec> = {
  DGS1MO: { level: 3.9, dailyVol: 0.02, reversionDays: 200, additive: true },
  DGS3MO: { level: 3.85, dailyVol: 0.02, reversionDays: 200, additive: true },
  DGS6MO: { level: 3.75, dailyVol: 0.025, reversionDays: 200, additive: true },
  DGS1: { level: 3.6, dailyVol: 0.03, reversionDays: 200, additive: true },
  DGS2: { level: 3.5, dailyVol: 0.045, reversionDays: 200, additive: true },
  DGS3: { level: 3.5, dailyVol: 0.05, reversionDays: 200, additive: true },
  DGS5: { level: 3.65, dailyVol: 0.05, reversionDays: 200, additive: true },
  DGS7: { level: 3.85, dailyVol: 0.05, reversionDays: 200, additive: true },
  DGS10: { level: 4.1, dailyVol: 0.05, reversionDays: 200, additive: true },
  DGS20: { level: 4.65, dailyVol: 0.045, reversionDays: 200, additive: true },
  DGS30: { level: 4.7, dailyVol: 0.045, reversionDays: 200, additive: true },
  DFF: { level: 3.9, dailyVol: 0.004, reversionDays: 200, additive: true },
  UNRATE: { level: 4.4, dailyVol: 0.01, reversionDays: 300, additive: true },
  CPIAUCSL: { level: 325, dailyVol: 0.0004, reversionDays: 60, driftPerYear: 0.027 },
  CPILFESL: { level: 330, dailyVol: 0.0003, reversionDays: 60, driftPerYear: 0.029 },
  PCEPI: { level: 127, dailyVol: 0.0003, reversionDays: 60, driftPerYear: 0.025 },
  PAYEMS: { level: 159_500, dailyVol: 0.0003, reversionDays: 120, driftPerYear: 0.008 },
  ICSA: { level: 225_000, dailyVol: 0.02, reversionDays: 60 },
  GDP: { level: 31_000, dailyVol: 0.0008, reversionDays: 120, driftPerYear: 0.05 },
  GDPC1: { level: 24_000, dailyVol: 0.0006, reversionDays: 120, driftPerYear: 0.02 },
  WALCL: { level: 6_550_000, dailyVol: 0.002, reversionDays: 120, driftPerYear: -0.02 },
  M2SL: { level: 22_300, dailyVol: 0.0008, reversionDays: 120, driftPerYear: 0.04 },
  DTWEXBGS: { level: 121, dailyVol: 0.004, reversionDays: 180 },
  PRICENPQUSDM: { level: 450, dailyVol: 0.012, reversionDays: 120 },
  PBARLUSDM: { level: 190, dailyVol: 0.012, reversionDays: 120 },
};

/** Quantities that are not prices: small additive walks, the same spec for every key of their kind. */
const WALKS: Record<string, AssetSpec> = {
  /** A DEX pool's premium over the asset's price (fraction). */
  spread: { level: 0, dailyVol: 0.006, reversionDays: 2, additive: true },
  /** A perpetual's funding rate per 8 h (fraction). */
  funding: { level: 0.0001, dailyVol: 0.00006, reversionDays: 5, additive: true },
  /** Ethereum's base fee (gwei), in log space like a price. */
  gas: { level: 4, dailyVol: 0.5, reversionDays: 1 },
  /** Weather per 1° cell: the temperature's departure from the climate (°C), wind speed (km/h) and direction (°). */
  wx: { level: 0, dailyVol: 2, reversionDays: 3, additive: true },
  wind: { level: 12, dailyVol: 5, reversionDays: 2, additive: true },
  winddir: { level: 240, dailyVol: 45, reversionDays: 3, additive: true },
  /** Air pollution's departure from its daily pattern (tenths of a log unit). */
  air: { level: 0, dailyVol: 3, reversionDays: 2, additive: true },
};

/** Assets that are another asset under a second name: one market state, whatever it is called. */
const SAME_AS: Record<string, string> = {
  'crypto:WBTC': 'crypto:BTC',
  'crypto:WETH': 'crypto:ETH',
  'crypto:STETH': 'crypto:ETH',
  'crypto:EURC': 'fx:EUR',
  'eq:GOOG': 'eq:GOOGL',
};

/** USD stablecoins: pinned near 1 by a fast reversion. */
const STABLES = new Set(['USDT', 'USDC', 'DAI', 'USDE', 'FDUSD', 'PYUSD', 'TUSD', 'FRAX', 'LUSD', 'USDP', 'GUSD', 'USDS', 'USD1']);

/** The asset holding the USD value of a currency or coin symbol (`EUR` → `fx:EUR`, `BTC` → `crypto:BTC`); none for USD. */
export const usdKey = (symbol: string): string | undefined =>
  symbol === 'USD' ? undefined : Object.hasOwn(FX, symbol) ? `fx:${symbol}` : `crypto:${symbol}`;

export const canonicalAsset = (key: string): string => own(SAME_AS, key) ?? key;

const splitKey = (key: string): [string, string] => {
  const at = key.indexOf(':');
  return [key.slice(0, at), key.slice(at + 1)];
};

/** The spec of an asset key (after `canonicalAsset`). */
export function assetSpec(seed: number, key: string): AssetSpec {
  const [kind = '', name = ''] = splitKey(key);
  const seeded = (min: number, max: number) => Math.exp(between(seed, `level:${key}`, Math.log(min), Math.log(max)));
  const walk = own(WALKS, kind);
  if (walk) return walk;
  switch (kind) {
    case 'crypto':
      if (STABLES.has(name)) return { level: 1, dailyVol: 0.00015, reversionDays: 1 };
      return { level: own(CRYPTO, name) ?? seeded(0.01, 50), dailyVol: name === 'BTC' ? 0.028 : 0.042, reversionDays: 90 };
    case 'eq':
      return { level: own(EQUITY, name) ?? seeded(30, 400), dailyVol: 0.017, reversionDays: 120 };
    case 'idx':
      return name === '^VIX'
        ? { level: 17, dailyVol: 0.06, reversionDays: 20 }
        : { level: own(INDEX, name) ?? seeded(1_000, 20_000), dailyVol: 0.01, reversionDays: 120 };
    case 'fx':
      return { level: own(FX, name) ?? seeded(0.001, 2), dailyVol: name === 'USD' ? 0 : 0.005, reversionDays: 180 };
    case 'macro':
      return own(MACRO, name) ?? { level: seeded(1, 1_000), dailyVol: 0.005, reversionDays: 120 };
    case 'cmd':
      return { level: own(COMMODITY, name) ?? seeded(1, 1_000), dailyVol: ['XAU', 'XPT'].includes(name) ? 0.012 : 0.02, reversionDays: 90 };
    default:
      return { level: seeded(1, 1_000), dailyVol: 0.02, reversionDays: 90 };
  }
}
