import { ApiError } from '../core/errors.js';
import type { Entity } from '../entities/dataset.js';
import { newsTopic } from './news-topic.js';
import type { DecisionRecipe, GoalCategory, GoalFacts, Plan, Step } from './plan.js';

/**
 * The built-in goal rules: a free-text goal (plus an optional entity) → the data fetches that
 * answer it and a decision recipe. Pure: the route runs the fetches.
 *
 * How the spec's "10 goal kinds" are counted: it lists "buy/sell BTC/ETH" and seven single kinds
 * (security scan, news brief, contract check, portfolio risk, DeFi yield, weather impact, stock
 * decision). Read as four trade goals that is 11, read as two directions it is 9; neither reading
 * gives 10. svc has 9 categories: buy_crypto and sell_crypto serve BTC and ETH (and any other coin of
 * the entity graph) with the same fetches for the named asset, plus the seven single kinds. The
 * tests plan each of the 11 named goals.
 */
export { GOAL_CATEGORIES, type DecisionRecipe, type GoalCategory, type GoalFacts, type Plan, type Step } from './plan.js';

interface Rule {
  category: GoalCategory;
  matches(facts: GoalFacts): boolean;
  plan(facts: GoalFacts): Omit<Plan, 'goal_category' | 'decision_recipe'>;
  recipe: DecisionRecipe;
}

const ADDRESS = /\b0x[0-9a-fA-F]{40}\b/;
const CHAIN = /\b(ethereum|base|arbitrum|optimism|polygon|bsc|avalanche)\b/i;
const COORDINATES = /(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)/;

const has = (pattern: RegExp) => (f: GoalFacts) => pattern.test(f.text);

/** A missing parameter the rule needs: a 400 that says how to supply it. */
const needs = (what: string, example: string) =>
  new ApiError('validation_failed', `this goal needs ${what}`, { field: 'goal', rule: 'missing_parameter', example });

function contractOf(f: GoalFacts): string {
  const address = f.address ?? (f.entity?.contracts ? Object.values(f.entity.contracts)[0] : undefined);
  if (!address)
    throw needs(
      'a contract address (0x…) in the goal or an entity with a contract',
      'is 0xdac17f958d2ee523a2206206994597c13d831ec7 safe to hold?',
    );
  return `${f.chain}:${address.toLowerCase()}`;
}

/** zeromev measures Ethereum mainnet only; other chains go without the MEV step. */
const mevExposure = (f: GoalFacts): Step[] => (f.chain === 'ethereum' ? [{ type: 'mev-exposure', q: contractOf(f) }] : []);

/** A coin to trade: a stablecoin has no perpetual funding or USDT pair of its own, so it is not one. */
function cryptoOf(f: GoalFacts): Entity {
  const e = f.entity;
  const asset = e?.type === 'crypto' ? e : undefined;
  if (!asset?.ids.coingecko || !asset.ids.symbol)
    throw needs(
      'a crypto asset other than a stablecoin (for example BTC or ETH, or entity=svc-ent:cr.bitcoin)',
      'should I buy BTC this week?',
    );
  return asset;
}

function cryptoTrade(f: GoalFacts) {
  const asset = cryptoOf(f);
  const symbol = asset.ids.symbol!;
  return {
    subject: asset.id,
    primary: [
      { type: 'crypto-price', q: asset.ids.coingecko! },
      { type: 'ta-indicators', q: `${symbol}:1h` },
      { type: 'funding-rates', q: symbol },
    ],
    supporting: [
      { type: 'sentiment-ticker', q: symbol },
      { type: 'order-book', q: `binance:${symbol}USDT` },
      { type: 'economic-indicator', q: 'DGS10' },
    ],
  };
}

const tradeCaveats = [
  'Indicators lag; size positions for being wrong.',
  'funding_rate and fear_greed_value are crowd measures, not forecasts.',
];

const RULES: Rule[] = [
  {
    category: 'security_scan',
    matches: has(/\b(scam|rug|honeypot|safe|security|scan|phishing|malicious)\b/i),
    plan: (f) => ({
      subject: f.address ?? f.entity?.id ?? null,
      primary: [{ type: 'token-risk', q: contractOf(f) }],
      supporting: [{ type: 'contract-risk', q: contractOf(f) }, ...mevExposure(f)],
    }),
    recipe: {
      outcomes: ['avoid', 'caution', 'acceptable'],
      rules: [
        { when: 'token-risk is_honeypot is true, or cannot_sell_all is true', then: 'avoid' },
        { when: 'token-risk buy_tax_pct or sell_tax_pct above 10, or owner can mint or pause', then: 'caution' },
        { when: 'contract-risk verified is false', then: 'caution' },
        { when: 'otherwise', then: 'acceptable' },
      ],
      caveats: ['A clean scan is not an audit; new tokens change owners and taxes.'],
    },
  },
  {
    category: 'contract_check',
    matches: has(/\b(contract|audit|approve|approval|verified|proxy)\b/i),
    plan: (f) => ({
      subject: f.address ?? f.entity?.id ?? null,
      primary: [{ type: 'contract-risk', q: contractOf(f) }],
      supporting: [{ type: 'token-risk', q: contractOf(f) }, ...mevExposure(f)],
    }),
    recipe: {
      outcomes: ['do_not_interact', 'review', 'interact'],
      rules: [
        { when: 'contract-risk verified is false', then: 'do_not_interact' },
        { when: 'contract-risk is_proxy is true (the code can change) or risk_score at least 50', then: 'review' },
        { when: 'otherwise', then: 'interact' },
      ],
      caveats: ['Approve only the amount you need; unlimited approvals outlive a check.'],
    },
  },
  {
    category: 'defi_yield',
    matches: has(/\b(yield|apy|apr|farm|farming|staking|stake|lend|lending)\b/i),
    plan: (f) => {
      // Only a coin names a DeFi token; a yield goal about a stock or an index looks at the stablecoin pools.
      const coin = f.entity?.type === 'crypto' || f.entity?.type === 'stablecoin' ? f.entity : undefined;
      const symbol = coin?.ids.symbol ?? 'USDC';
      const stable = !coin || coin.type === 'stablecoin';
      return {
        subject: coin?.id ?? null,
        primary: [{ type: 'defi-yield', q: symbol }],
        supporting: [...(stable ? [{ type: 'stable-depeg', q: symbol }] : []), { type: 'gas-prices-eth', q: '' }],
      };
    },
    recipe: {
      outcomes: ['deposit', 'wait', 'avoid'],
      rules: [
        { when: 'stable-depeg deviation_bps beyond ±100 (more than 1% off its peg)', then: 'avoid' },
        { when: 'the best defi-yield pool has tvl_usd below 10,000,000 or apy_pct above 50', then: 'wait (thin or unsustainable yield)' },
        { when: 'gas-prices-eth propose_gwei makes the deposit and exit cost more than a month of yield', then: 'wait' },
        { when: 'otherwise', then: 'deposit into the highest-apy pool among the large ones' },
      ],
      caveats: ['APY is variable and rewards tokens can fall; smart-contract risk is not priced in.'],
    },
  },
  {
    category: 'weather_impact',
    matches: has(/\b(weather|rain|storm|hurricane|temperature|heat ?wave|frost|drought|snow|forecast)\b/i),
    plan: (f) => {
      if (!f.coordinates) throw needs('coordinates as "<lat>,<lon>" in the goal', 'how will the weather at 41.88,-87.63 affect corn?');
      const at = `${f.coordinates.lat},${f.coordinates.lon}`;
      return {
        subject: at,
        primary: [{ type: 'weather', q: at }],
        supporting: [
          {
            type: 'agriculture-prices',
            q: /\b(wheat)\b/i.test(f.text) ? 'wheat' : /\b(soy|soybeans?)\b/i.test(f.text) ? 'soybeans' : 'corn',
          },
          { type: 'energy-oil', q: 'WTI' },
          { type: 'air-quality', q: at },
        ],
      };
    },
    recipe: {
      outcomes: ['material', 'watch', 'immaterial'],
      rules: [
        {
          when: 'weather precipitation or wind is extreme for the place (storm, flood, heat, frost)',
          then: 'material: expect supply effects on the crops and energy listed',
        },
        { when: 'the price rows already moved more than 3% over the period', then: 'watch: the market may have priced it' },
        { when: 'otherwise', then: 'immaterial' },
      ],
      caveats: ['One location is a proxy; crops and grids span regions.'],
    },
  },
  {
    category: 'portfolio_risk',
    matches: has(/\b(portfolio|hedge|hedging|exposure|drawdown|diversif\w*|risk\w*)\b/i),
    plan: () => ({
      subject: null,
      primary: [
        { type: 'crypto-price', q: 'bitcoin,ethereum' },
        { type: 'stable-depeg', q: 'USDT' },
        { type: 'economic-indicator', q: 'DGS10' },
      ],
      supporting: [
        { type: 'funding-rates', q: 'BTC' },
        { type: 'forex', q: 'USD:EUR' },
        { type: 'commodity-metals', q: 'gold' },
      ],
    }),
    recipe: {
      outcomes: ['reduce', 'hedge', 'hold'],
      rules: [
        { when: 'stable-depeg deviation_bps for USDT beyond ±50', then: 'reduce: move stable balances' },
        { when: 'crypto change_24h_pct below -10, or funding annualized_pct above 30 (crowded longs)', then: 'hedge' },
        { when: 'the 10-year yield rose more than 0.25 points over its window', then: 'hedge duration and growth exposure' },
        { when: 'otherwise', then: 'hold' },
      ],
      caveats: ['Built from market-wide signals; for your own holdings see GET /api/portfolio/insights.'],
    },
  },
  {
    category: 'buy_crypto',
    matches: (f) => /\b(buy|long|accumulate|enter|dca)\b/i.test(f.text) && f.entity?.type !== 'equity',
    plan: cryptoTrade,
    recipe: {
      outcomes: ['buy', 'wait'],
      rules: [
        { when: 'ta-indicators rsi_14 above 70, or price above the upper Bollinger band', then: 'wait (overbought)' },
        { when: 'funding-rates annualized_pct above 30', then: 'wait (crowded longs)' },
        { when: 'rsi_14 below 35 and macd_histogram turning up', then: 'buy' },
        { when: 'otherwise', then: 'buy in parts (dollar-cost average)' },
      ],
      caveats: tradeCaveats,
    },
  },
  {
    category: 'sell_crypto',
    matches: (f) => /\b(sell|short|exit|take profits?|dump)\b/i.test(f.text) && f.entity?.type !== 'equity',
    plan: cryptoTrade,
    recipe: {
      outcomes: ['sell', 'hold'],
      rules: [
        { when: 'ta-indicators rsi_14 above 70 and macd_histogram falling', then: 'sell (momentum fading from overbought)' },
        { when: 'funding-rates annualized_pct above 30 and fear_greed_value above 75', then: 'sell part (euphoria)' },
        { when: 'price below the lower Bollinger band with rsi_14 below 30', then: 'hold (capitulation is a poor exit)' },
        { when: 'otherwise', then: 'hold' },
      ],
      caveats: tradeCaveats,
    },
  },
  {
    category: 'stock_decision',
    matches: (f) => f.entity?.type === 'equity' || /\b(stock|stocks|shares|equity|equities)\b/i.test(f.text),
    plan: (f) => {
      if (f.entity?.type !== 'equity' || !f.entity.ids.ticker)
        throw needs('a stock ticker (for example AAPL, or entity=svc-ent:eq.aapl)', 'should I buy AAPL?');
      return {
        subject: f.entity.id,
        primary: [{ type: 'stock-quote', q: f.entity.ids.ticker }],
        supporting: [
          { type: 'economic-indicator', q: 'DGS10' },
          { type: 'sec-edgar', q: '8-K' },
        ],
      };
    },
    recipe: {
      outcomes: ['buy', 'hold', 'sell'],
      rules: [
        { when: 'stock-quote change_pct below -5 on the day with no 8-K explaining it', then: 'hold (wait for news)' },
        { when: 'a fresh 8-K for the company reports a material event', then: 'read it before acting' },
        { when: 'the 10-year yield rose more than 0.25 points over its window', then: 'hold (rates pressure valuations)' },
        { when: 'otherwise', then: 'follow your thesis; the data shows no red flag' },
      ],
      caveats: ['One quote is not a valuation; earnings and guidance are not in this context.'],
    },
  },
  {
    category: 'news_brief',
    matches: has(/\b(news|headlines?|brief|briefing|happening|happened|latest|events?)\b/i),
    plan: (f) => ({
      subject: f.entity?.id ?? null,
      primary: [
        { type: 'news-hn-top', q: '' },
        { type: 'gdelt-events', q: newsTopic(f) },
      ],
      supporting: [
        { type: 'reddit-trending', q: 'top' },
        { type: 'who-outbreak', q: 'latest' },
      ],
    }),
    recipe: {
      outcomes: ['brief'],
      rules: [
        { when: 'a story appears in two or more sources', then: 'lead with it' },
        { when: 'gdelt-events articles for the topic are all older than 24 hours', then: 'say nothing new happened' },
        { when: 'otherwise', then: 'list the top three items with their source and time' },
      ],
      caveats: ['Headlines are not verified facts; cite the source of each item.'],
    },
  },
];

/** Facts from the goal text; the entity comes from `entity=` or the words of the goal (see routes). */
export function goalFacts(text: string, entity?: Entity): GoalFacts {
  const coordinates = COORDINATES.exec(text);
  const lat = coordinates ? Number(coordinates[1]) : NaN;
  const lon = coordinates ? Number(coordinates[2]) : NaN;
  return {
    text,
    entity,
    address: ADDRESS.exec(text)?.[0],
    chain: (CHAIN.exec(text)?.[1] ?? 'ethereum').toLowerCase(),
    coordinates: Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined,
  };
}

/** The first rule whose words match decides; none → undefined (the caller's fallback). */
export function planGoal(facts: GoalFacts): Plan | undefined {
  const rule = RULES.find((r) => r.matches(facts));
  if (!rule) return undefined;
  return { goal_category: rule.category, ...rule.plan(facts), decision_recipe: rule.recipe };
}
