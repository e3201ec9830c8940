import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { derivedSecret } from '../core/secrets.js';
import { BacktestService } from '../backtest/service.js';
import { modelsFor } from '../models/index.js';
import { PlaidLink } from './plaid.js';
import { SecretBox } from './secret-box.js';
import { WalletReader } from './wallets.js';
import { PortfolioService } from './service.js';
import { InsightsCalculator } from './insights.js';
import { PortfolioAsk } from './ask.js';
import { addAccountDeletion, addAccountRoutes } from './routes-accounts.js';
import { addInsightRoutes } from './routes-insights.js';

/** Portfolio: accounts, insights and questions, then deletion (registered in that order, which /openapi.json keeps). */
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

    const parts = { accounts, calculator, asker };
    addAccountRoutes(app, parts);
    addInsightRoutes(app, parts);
    addAccountDeletion(app, parts);
  };
