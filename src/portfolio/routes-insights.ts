import { errorResponses, SECURITY } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { WINDOW_DAYS } from './insights.js';
import { DISCLAIMER } from './ask.js';
import { AskBody, AskResponse, InsightsSchema, UserQuery } from './schemas.js';
import { OWNER_RULE, TAGS, type PortfolioParts } from './routes-shared.js';

/** What the latest snapshot says: computed insights, and questions answered from them with cited receipts. */
export function addInsightRoutes(app: RouteApp, { accounts, calculator, asker }: PortfolioParts): void {
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
}
