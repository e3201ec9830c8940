import type { PortfolioAsk } from './ask.js';
import type { InsightsCalculator } from './insights.js';
import type { PortfolioService } from './service.js';

/** What the portfolio routes work with, built once by portfolioRoutes. */
export interface PortfolioParts {
  accounts: PortfolioService;
  calculator: InsightsCalculator;
  asker: PortfolioAsk;
}

export const TAGS = ['portfolio'];
export const OWNER_RULE =
  'Owner only: send Authorization: Bearer <portfolio_token> from POST /api/portfolio/link; no token is 401, a token of another user (or an unknown user_id) is 403. ';
