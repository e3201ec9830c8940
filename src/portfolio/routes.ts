import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../core/errors.js';
import { derivedSecret } from '../core/secrets.js';
import { errorResponses, SECURITY } from '../core/schemas.js';
import { isValidIsin } from '../entities/identifiers.js';
import { BacktestService } from '../backtest/service.js';
import { modelsFor } from '../models/index.js';
import type { ManualHolding } from './holdings.js';
import { PlaidLink } from './plaid.js';
import { SecretBox } from './secret-box.js';
import { WalletReader } from './wallets.js';
import { PortfolioService } from './service.js';
import { InsightsCalculator, WINDOW_DAYS } from './insights.js';
import { DISCLAIMER, PortfolioAsk } from './ask.js';
import {
  AskBody,
  AskResponse,
  DeleteResponse,
  InsightsSchema,
  LinkBody,
  LinkResponse,
  SnapshotSchema,
  SyncBody,
  UserQuery,
} from './schemas.js';

const TAGS = ['portfolio'];
const OWNER_RULE =
  'Owner only: send Authorization: Bearer <portfolio_token> from POST /api/portfolio/link; no token is 401, a token of another user (or an unknown user_id) is 403. ';

/** Exactly one identifier per manual holding, and a valid ISIN check digit; the 400 names holdings[i]. */
function checkHoldings(holdings: ManualHolding[]): void {
  holdings.forEach((h, i) => {
    const given = [h.symbol, h.contract, h.isin].filter((v) => v !== undefined).length;
    if (given !== 1)
      throw new ApiError('validation_failed', `holdings[${i}] needs exactly one of symbol, contract or isin`, {
        field: `holdings[${i}]`,
        rule: 'one_identifier',
      });
    if (h.isin && !isValidIsin(h.isin.toUpperCase()))
      throw new ApiError('validation_failed', `holdings[${i}].isin has a wrong check digit`, {
        field: `holdings[${i}].isin`,
        rule: 'isin_check_digit',
      });
  });
}

export const portfolioRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const { config } = deps;
    // Plaid without SVC_SECRET_KEY is only the demo's loopback sandbox (demo/fakes.ts; the configuration requires the
    // key otherwise): its tokens are sealed with a key derived from the signing key.
    const secretKeys =
      config.plaid && config.secretKeys.length === 0 ? [derivedSecret(deps.signingKey.privateKey, 'portfolio-secrets')] : config.secretKeys;
    const resolver = ctx.entities.resolver;
    const accounts = new PortfolioService({
      repo: deps.repos.portfolio,
      clock: deps.clock,
      resolver,
      wallets: new WalletReader(deps.upstream),
      plaid: config.plaid ? new PlaidLink(config.plaid) : undefined,
      box: secretKeys.length ? new SecretBox(secretKeys) : undefined,
    });
    const calculator = new InsightsCalculator({
      sources: deps.sources,
      backtests: new BacktestService(deps.upstream, deps.sources, ctx.cursors, deps.clock),
      resolver,
      clock: deps.clock,
    });
    const asker = new PortfolioAsk({
      models: modelsFor(deps),
      sources: deps.sources,
      resolver,
      key: deps.signingKey,
      issuer: config.issuer,
      clock: deps.clock,
    });

    app.post(
      '/api/portfolio/link',
      {
        schema: {
          security: SECURITY.portfolio,
          tags: TAGS,
          summary: 'Create a portfolio user (token shown once) and get a Plaid Link token',
          description:
            'A new user_id is created and answered with its portfolio_token, shown once and stored hashed. Calling again for an existing user needs that user’s token ' +
            '(Authorization: Bearer) and returns portfolio_token null with a fresh link_token. link_token comes from Plaid /link/token/create (product investments) when Plaid is configured, else null: ' +
            'manual holdings work without it.',
          body: LinkBody,
          response: { 200: LinkResponse, ...errorResponses(400, 401, 403, 503) },
        },
      },
      async (request) => accounts.link(request.body.user_id, request.headers.authorization),
    );

    app.post(
      '/api/portfolio/sync',
      {
        schema: {
          security: SECURITY.portfolio,
          tags: TAGS,
          summary: 'Sync holdings from Plaid or from a manual list',
          description:
            OWNER_RULE +
            'Body {user_id, public_token}: the public token is exchanged once (/item/public_token/exchange; the access token is stored AES-256-GCM encrypted, never returned), then holdings ' +
            '(/investments/holdings/get), balances (/accounts/balance/get) and the last 30 days of investment transactions (/investments/transactions/get) are pulled. Later syncs send {user_id} alone. ' +
            'Body {user_id, holdings:[{symbol|contract|isin, quantity, cost_basis?}], wallets:["<chain>:<address>"]} (either or both; 1-200 holdings, 1-10 wallets) replaces the holdings with a ' +
            'manual list; a wallet adds its native coin and non-zero ERC-20 balances, read from the chain’s Blockscout explorer (read-only, no cost basis). Each security is mapped to the entity graph by an exact ' +
            'ISIN, CUSIP, contract or ticker match; the rest are listed in unmapped, never guessed. Each sync stores a snapshot.',
          body: SyncBody,
          response: { 200: SnapshotSchema, ...errorResponses(400, 401, 403, 409, 503) },
        },
      },
      async (request) => {
        const { user_id: userId, public_token: publicToken, holdings, wallets } = request.body;
        if (publicToken && (holdings || wallets))
          throw new ApiError('validation_failed', 'send public_token, or holdings and/or wallets, not both', {
            field: holdings ? 'holdings' : 'wallets',
          });
        if (holdings) checkHoldings(holdings);
        const user = await accounts.owner(userId, request.headers.authorization);
        return accounts.sync(user, { public_token: publicToken, holdings, wallets });
      },
    );

    app.get(
      '/api/portfolio/insights',
      {
        config: { signed: true },
        schema: {
          security: SECURITY.portfolio,
          tags: TAGS,
          summary: 'Computed insights on the latest snapshot: value, allocation, concentration, P/L, risk',
          description:
            OWNER_RULE +
            'Computed, not generated, from the latest sync. Prices: cash at 1; mapped crypto from crypto-price (usd), mapped equities from stock-quote (price); when no live price answers, ' +
            'the institution price Plaid reported (price_source plaid-institution-price); else the holding is listed in unpriced. Each position carries price_source and price_as_of. ' +
            'value_i = quantity_i × price_i; market_value = Σ value_i; w_i = value_i / market_value; weight_pct = 100·w_i. allocation: Σ weight_pct per asset class, sector (Plaid sector, else the ' +
            'entity category) and currency. concentration: top_holding = the largest w_i; hhi = Σ w_i² (1/n for n equal positions, 1 for one); effective_positions = 1/hhi. unrealized_pl over ' +
            'positions with a cost basis: usd = Σ (value_i − cost_basis_i), pct = 100·usd / Σ cost_basis_i. risk, from daily backtest candles of the last ' +
            `${WINDOW_DAYS} days (crypto via Binance, equities via Yahoo; cash constant): V_d = cash + Σ quantity_i × close_i,d over the days every included position has a close; ` +
            'r_d = V_d/V_{d−1} − 1; daily_volatility_pct = 100·stdev(r) (sample); annualized_volatility_pct = daily × √365 when only crypto is included, else × √252; ' +
            'max_drawdown_pct = 100·max_d (peak_d − V_d)/peak_d; coverage_pct = share of market value included. flagged_tokens: held tokens with an Ethereum contract whose token-risk row has ' +
            'is_honeypot true or risk_score ≥ 50. upcoming_events: token-unlock rows of held crypto (no data type covers earnings dates yet). Signed.',
          querystring: UserQuery,
          response: { 200: InsightsSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const user = await accounts.owner(request.query.user_id, request.headers.authorization);
        const insights = await calculator.compute(await accounts.latest(user));
        reply.provenance = { asOf: insights.as_of, sources: insights.sources };
        return insights;
      },
    );

    app.post(
      '/api/portfolio/ask',
      {
        config: { signed: true },
        schema: {
          security: SECURITY.portfolio,
          tags: TAGS,
          summary: 'Ask about your portfolio; answered by the answerer model with citations to receipts',
          description:
            OWNER_RULE +
            'The answerer model of SVC_MODELS reads, as quoted data, the insights and the primary fetches of the agent-context rule the question matches (e.g. "should I sell my ETH" → price, ' +
            'indicators, funding). Each of those is returned in evidence with its own signed receipt; receipt_id is that receipt’s response_hash. Citations [{claim, source_type, receipt_id}] ' +
            'must point at evidence; others are dropped and counted. A question the data cannot answer has answerable false. ' +
            `Carries the disclaimer "${DISCLAIMER}" once. No model configured: 503 model_unavailable; daily model budget spent: 503 model_budget_exhausted; a failing model: 503 upstream_unavailable. Signed.`,
          body: AskBody,
          response: { 200: AskResponse, ...errorResponses(400, 401, 403, 404, 503) },
        },
      },
      async (request, reply) => {
        const user = await accounts.owner(request.body.user_id, request.headers.authorization);
        const insights = await calculator.compute(await accounts.latest(user));
        const answer = await asker.answer(user.user_id, request.body.question, insights);
        reply.provenance = {
          asOf: Math.min(...answer.evidence.map((e) => e._receipt.as_of)),
          sources: answer.evidence.flatMap((e) => e._receipt.sources),
        };
        return answer;
      },
    );

    app.delete(
      '/api/portfolio',
      {
        schema: {
          security: SECURITY.portfolio,
          tags: TAGS,
          summary: 'Delete the user, every snapshot and the Plaid item',
          description:
            OWNER_RULE +
            'Removes the Plaid item (/item/remove) first; if Plaid fails, nothing is deleted and the answer is 503, so the call can be retried. Then the user and all snapshots are deleted.',
          querystring: UserQuery,
          response: { 200: DeleteResponse, ...errorResponses(400, 401, 403, 503) },
        },
      },
      async (request) => accounts.delete(await accounts.owner(request.query.user_id, request.headers.authorization)),
    );
  };
