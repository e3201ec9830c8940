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
    let plaidConfig = config.plaid;
    let secretKeys = config.secretKeys;
    if (config.demo && !plaidConfig) {
      // The demo links the loopback Plaid sandbox, its tokens sealed with a key derived from the signing key.
      // Imported here, not at the top: the sandbox is typed by (and loads) the Plaid SDK.
      const { PlaidFake } = await import('../demo/plaid-fake.js');
      const fake = await new PlaidFake().start();
      app.addHook('onClose', () => fake.close());
      plaidConfig = { clientId: fake.clientId, secret: fake.secret, baseUrl: fake.url };
      if (secretKeys.length === 0) secretKeys = [derivedSecret(deps.signingKey.privateKey, 'portfolio-secrets')];
    }
    const resolver = ctx.entities.resolver;
    const accounts = new PortfolioService({
      repo: deps.repos.portfolio,
      clock: deps.clock,
      resolver,
      wallets: new WalletReader(deps.upstream),
      plaid: plaidConfig ? new PlaidLink(plaidConfig) : undefined,
      box: secretKeys.length ? new SecretBox(secretKeys) : undefined,
    });
    const calculator = new InsightsCalculator({
      sources: deps.sources,
      backtests: new BacktestService(deps.upstream, deps.sources, ctx.cursors, deps.clock),
      resolver,
      clock: deps.clock,
    });
    const asker = new PortfolioAsk({
      models: await modelsFor(app, deps),
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
