import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import {
  AccountSubtype,
  AccountType,
  InvestmentTransactionSubtype,
  InvestmentTransactionType,
  ItemUpdateTypeEnum,
  PlaidErrorType,
  Products,
  type AccountBase,
  type Holding,
  type InvestmentTransaction,
  type Item,
  type PlaidError,
  type Security,
} from 'plaid';

/**
 * A loopback Plaid sandbox: the endpoints svc calls, with the request and response shapes of
 * Plaid's API reference (https://plaid.com/docs/api/) as typed by the official `plaid` client, so a
 * shape drift fails to compile. One sandbox institution with an IRA (Apple, Bitcoin, a mutual fund
 * no entity covers, cash) and a checking account. Credentials come as Plaid sends them: the
 * PLAID-CLIENT-ID / PLAID-SECRET headers or client_id / secret in the body.
 */
export const DEMO_PUBLIC_TOKEN = 'public-sandbox-svc-demo';
const INSTITUTION = { id: 'ins_109508', name: 'First Platypus Bank' };

type Json = Record<string, unknown>;

const security = (s: Partial<Security> & Pick<Security, 'security_id' | 'name' | 'type'>): Security => ({
  isin: null,
  cusip: null,
  sedol: null,
  institution_security_id: null,
  institution_id: null,
  proxy_security_id: null,
  ticker_symbol: null,
  is_cash_equivalent: false,
  close_price: null,
  close_price_as_of: null,
  iso_currency_code: 'USD',
  unofficial_currency_code: null,
  market_identifier_code: null,
  sector: null,
  industry: null,
  cfi_code: null,
  figi: null,
  option_contract: null,
  fixed_income: null,
  ...s,
});

export const SANDBOX_SECURITIES: Security[] = [
  security({
    security_id: 'sec-aapl',
    name: 'Apple Inc.',
    type: 'equity',
    ticker_symbol: 'AAPL',
    isin: 'US0378331005',
    cusip: '037833100',
    close_price: 225.0,
    close_price_as_of: '2026-11-20',
    market_identifier_code: 'XNAS',
    sector: 'Electronic Technology',
    industry: 'Telecommunications Equipment',
  }),
  security({
    security_id: 'sec-btc',
    name: 'Bitcoin',
    type: 'cryptocurrency',
    ticker_symbol: 'BTC',
    close_price: 66000,
    close_price_as_of: '2026-11-20',
    iso_currency_code: 'USD',
  }),
  security({
    security_id: 'sec-camyx',
    name: 'Cambiar International Equity Instl',
    type: 'mutual fund',
    ticker_symbol: 'CAMYX',
    close_price: 8.5,
    close_price_as_of: '2026-11-20',
  }),
  security({
    security_id: 'sec-usd',
    name: 'U S Dollar',
    type: 'cash',
    ticker_symbol: 'CUR:USD',
    is_cash_equivalent: true,
    close_price: 1,
    close_price_as_of: null,
  }),
];

const IRA = 'acc-ira';
const CHECKING = 'acc-checking';

const holding = (security_id: string, quantity: number, institution_price: number, cost_basis: number | null): Holding => ({
  account_id: IRA,
  security_id,
  quantity,
  institution_price,
  institution_price_as_of: '2026-11-20',
  institution_value: Number((quantity * institution_price).toFixed(2)),
  cost_basis,
  iso_currency_code: 'USD',
  unofficial_currency_code: null,
});

export const SANDBOX_HOLDINGS: Holding[] = [
  holding('sec-aapl', 10, 225.0, 1500),
  holding('sec-btc', 0.05, 66000, 2000),
  holding('sec-camyx', 100, 8.5, 900),
  holding('sec-usd', 1200, 1, 1200),
];

const account = (
  account_id: string,
  name: string,
  type: AccountType,
  subtype: AccountSubtype,
  current: number,
  available: number | null,
): AccountBase => ({
  account_id,
  balances: { available, current, limit: null, iso_currency_code: 'USD', unofficial_currency_code: null },
  mask: account_id === IRA ? '5555' : '0000',
  name,
  official_name: `Plaid ${name}`,
  type,
  subtype,
});

export const SANDBOX_ACCOUNTS: AccountBase[] = [
  account(IRA, 'IRA', AccountType.Investment, AccountSubtype.Ira, 9300, null),
  account(CHECKING, 'Checking', AccountType.Depository, AccountSubtype.Checking, 110, 100),
];

const dayBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

function sandboxTransactions(endDate: string): InvestmentTransaction[] {
  const tx = (id: string, daysAgo: number, security_id: string, name: string, quantity: number, price: number): InvestmentTransaction => ({
    investment_transaction_id: id,
    account_id: IRA,
    security_id,
    date: dayBefore(endDate, daysAgo),
    name,
    quantity,
    amount: Number((quantity * price).toFixed(2)),
    price,
    fees: 0,
    type: InvestmentTransactionType.Buy,
    subtype: InvestmentTransactionSubtype.Buy,
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
  });
  return [tx('itx-1', 3, 'sec-aapl', 'BUY Apple Inc.', 2, 221.1), tx('itx-2', 12, 'sec-btc', 'BUY Bitcoin', 0.01, 64000)];
}

interface ItemState {
  item_id: string;
  removed: boolean;
}

export class PlaidFake {
  private server?: Server;
  private readonly publicTokens = new Set<string>([DEMO_PUBLIC_TOKEN]);
  private readonly items = new Map<string, ItemState>();
  /** Requests received: path and body (tests check what svc sent). */
  readonly requests: { path: string; body: Json }[] = [];
  url = '';

  constructor(
    readonly clientId = 'svc-demo-client',
    readonly secret = 'svc-demo-secret',
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Access tokens Plaid still honours (removed items drop out). */
  liveItems(): number {
    return [...this.items.values()].filter((i) => !i.removed).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json;
    const path = new URL(req.url ?? '/', 'http://plaid').pathname;
    this.requests.push({ path, body });
    const send = (status: number, payload: Json) =>
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ...payload, request_id: randomUUID().slice(0, 15) }));
    const clientId = req.headers['plaid-client-id'] ?? body.client_id;
    const secret = req.headers['plaid-secret'] ?? body.secret;
    if (clientId !== this.clientId || secret !== this.secret)
      return void send(400, plaidError(PlaidErrorType.InvalidInput, 'INVALID_API_KEYS', 'invalid client_id or secret provided'));
    const route = ROUTES[path];
    if (!route) return void send(404, plaidError(PlaidErrorType.InvalidRequest, 'UNKNOWN_FIELDS', `unknown endpoint ${path}`));
    const [status, payload] = route(this, body);
    send(status, payload);
  }

  private item(body: Json): ItemState | undefined {
    const item = this.items.get(String(body.access_token));
    return item && !item.removed ? item : undefined;
  }

  private itemBody(item: ItemState): Item {
    return {
      item_id: item.item_id,
      institution_id: INSTITUTION.id,
      institution_name: INSTITUTION.name,
      webhook: null,
      error: null,
      available_products: [Products.Balance],
      billed_products: [Products.Investments],
      consent_expiration_time: null,
      update_type: ItemUpdateTypeEnum.Background,
    };
  }

  linkTokenCreate(body: Json): [number, Json] {
    const user = body.user as Json | undefined;
    if (!user?.client_user_id || !Array.isArray(body.products) || typeof body.client_name !== 'string') {
      return [
        400,
        plaidError(PlaidErrorType.InvalidRequest, 'MISSING_FIELDS', 'client_name, user.client_user_id and products are required'),
      ];
    }
    return [200, { link_token: `link-sandbox-${randomUUID()}`, expiration: new Date(Date.now() + 4 * 3_600_000).toISOString() }];
  }

  sandboxPublicTokenCreate(): [number, Json] {
    const token = `public-sandbox-${randomUUID()}`;
    this.publicTokens.add(token);
    return [200, { public_token: token }];
  }

  publicTokenExchange(body: Json): [number, Json] {
    const token = String(body.public_token);
    if (!this.publicTokens.delete(token))
      return [
        400,
        plaidError(PlaidErrorType.InvalidInput, 'INVALID_PUBLIC_TOKEN', 'provided public token is in an invalid format or expired'),
      ];
    if (token === DEMO_PUBLIC_TOKEN) this.publicTokens.add(token);
    const access = `access-sandbox-${randomUUID()}`;
    const item = { item_id: randomUUID().replace(/-/g, ''), removed: false };
    this.items.set(access, item);
    return [200, { access_token: access, item_id: item.item_id }];
  }

  holdingsGet(body: Json): [number, Json] {
    const item = this.item(body);
    if (!item) return invalidAccessToken();
    return [
      200,
      { accounts: [SANDBOX_ACCOUNTS[0]], holdings: SANDBOX_HOLDINGS, securities: SANDBOX_SECURITIES, item: this.itemBody(item) },
    ];
  }

  balanceGet(body: Json): [number, Json] {
    const item = this.item(body);
    if (!item) return invalidAccessToken();
    return [200, { accounts: SANDBOX_ACCOUNTS, item: this.itemBody(item) }];
  }

  transactionsGet(body: Json): [number, Json] {
    const item = this.item(body);
    if (!item) return invalidAccessToken();
    const { start_date: start, end_date: end } = body as { start_date?: string; end_date?: string };
    if (!start || !end || start > end)
      return [
        400,
        plaidError(PlaidErrorType.InvalidRequest, 'INVALID_FIELD', 'start_date and end_date (YYYY-MM-DD, start first) are required'),
      ];
    const transactions = sandboxTransactions(end).filter((t) => t.date >= start);
    return [
      200,
      {
        accounts: [SANDBOX_ACCOUNTS[0]],
        securities: SANDBOX_SECURITIES,
        investment_transactions: transactions,
        total_investment_transactions: transactions.length,
        item: this.itemBody(item),
      },
    ];
  }

  itemRemove(body: Json): [number, Json] {
    const item = this.item(body);
    if (!item) return invalidAccessToken();
    item.removed = true;
    return [200, {}];
  }
}

const ROUTES: Record<string, (fake: PlaidFake, body: Json) => [number, Json]> = {
  '/link/token/create': (fake, body) => fake.linkTokenCreate(body),
  '/sandbox/public_token/create': (fake) => fake.sandboxPublicTokenCreate(),
  '/item/public_token/exchange': (fake, body) => fake.publicTokenExchange(body),
  '/investments/holdings/get': (fake, body) => fake.holdingsGet(body),
  '/accounts/balance/get': (fake, body) => fake.balanceGet(body),
  '/investments/transactions/get': (fake, body) => fake.transactionsGet(body),
  '/item/remove': (fake, body) => fake.itemRemove(body),
};

function plaidError(type: PlaidErrorType, code: string, message: string): Json {
  const error: PlaidError = {
    error_type: type,
    error_code: code,
    error_message: message,
    display_message: null,
    causes: [],
    status: 400,
    documentation_url: 'https://plaid.com/docs/errors/',
  };
  return error as unknown as Json;
}

const invalidAccessToken = (): [number, Json] => [
  400,
  plaidError(PlaidErrorType.InvalidInput, 'INVALID_ACCESS_TOKEN', 'provided access token is in an invalid format or has been removed'),
];
