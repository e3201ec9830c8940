import type { AccountBase, Holding, InvestmentTransaction, PlaidApi, Security } from 'plaid';
import { ApiError } from '../core/errors.js';
import { importOnce } from '../core/import-once.js';

/**
 * The Plaid calls the portfolio makes, through the official client. Plaid's errors become a 400
 * when the caller's public token is bad, else a 503 naming Plaid's error code; the access token
 * never appears in an error or a log.
 */
export interface PlaidPull {
  accounts: AccountBase[];
  holdings: Holding[];
  securities: Security[];
  transactions: InvestmentTransaction[];
}

const TIMEOUT_MS = 10_000;
const TRANSACTION_DAYS = 30;

const loadPlaid = importOnce(() => import('plaid'));

export class PlaidLink {
  private client?: Promise<PlaidApi>;

  constructor(private readonly config: { clientId: string; secret: string; baseUrl: string }) {}

  /** The official client, built on the first Plaid call. */
  private api(): Promise<PlaidApi> {
    return (this.client ??= loadPlaid().then(
      ({ Configuration, PlaidApi }) =>
        new PlaidApi(
          new Configuration({
            basePath: this.config.baseUrl,
            baseOptions: { timeout: TIMEOUT_MS, headers: { 'PLAID-CLIENT-ID': this.config.clientId, 'PLAID-SECRET': this.config.secret } },
          }),
        ),
    ));
  }

  async linkToken(userId: string): Promise<string> {
    const api = await this.api();
    const { CountryCode, Products } = await loadPlaid();
    const { data } = await call(() =>
      api.linkTokenCreate({
        client_name: 'svc',
        language: 'en',
        country_codes: [CountryCode.Us],
        user: { client_user_id: userId },
        products: [Products.Investments],
      }),
    );
    return data.link_token;
  }

  async exchange(publicToken: string): Promise<{ accessToken: string; itemId: string }> {
    const api = await this.api();
    const { data } = await call(() => api.itemPublicTokenExchange({ public_token: publicToken }), 'public_token');
    return { accessToken: data.access_token, itemId: data.item_id };
  }

  /** Holdings, balances and the last 30 days of investment transactions, in parallel. */
  async pull(accessToken: string, today: string): Promise<PlaidPull> {
    const start = new Date(Date.parse(`${today}T00:00:00Z`) - TRANSACTION_DAYS * 86_400_000).toISOString().slice(0, 10);
    const api = await this.api();
    const [holdings, balances, transactions] = await Promise.all([
      call(() => api.investmentsHoldingsGet({ access_token: accessToken })),
      call(() => api.accountsBalanceGet({ access_token: accessToken })),
      call(() =>
        api.investmentsTransactionsGet({ access_token: accessToken, start_date: start, end_date: today, options: { count: 100 } }),
      ),
    ]);
    return {
      accounts: balances.data.accounts,
      holdings: holdings.data.holdings,
      securities: holdings.data.securities,
      transactions: transactions.data.investment_transactions,
    };
  }

  async remove(accessToken: string): Promise<void> {
    const api = await this.api();
    await call(() => api.itemRemove({ access_token: accessToken }));
  }
}

interface PlaidFailure {
  response?: { status?: number; data?: { error_code?: string; error_message?: string } };
  code?: string;
}

async function call<T>(run: () => Promise<T>, callerField?: string): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const failure = e as PlaidFailure;
    const code = failure.response?.data?.error_code ?? failure.code ?? 'unreachable';
    if (callerField && code === 'INVALID_PUBLIC_TOKEN')
      throw new ApiError('validation_failed', 'Plaid refused the public_token (invalid, expired or already used)', {
        field: callerField,
        plaid_error: code,
      });
    throw new ApiError('upstream_unavailable', `Plaid answered ${failure.response?.status ?? 'nothing'} (${code})`, {
      upstream: 'plaid',
      plaid_error: code,
    });
  }
}
