import { ApiError } from '../core/errors.js';
import { errorResponses, SECURITY } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { isValidIsin } from '../entities/identifiers.js';
import type { ManualHolding } from './holdings.js';
import { DeleteResponse, LinkBody, LinkResponse, SnapshotSchema, SyncBody, UserQuery } from './schemas.js';
import { OWNER_RULE, TAGS, type PortfolioParts } from './routes-shared.js';

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

/** A user's account: created (with its Plaid Link token), then synced from Plaid, a manual list or wallets. */
export function addAccountRoutes(app: RouteApp, { accounts }: PortfolioParts): void {
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
}

/** Deleting a user: the Plaid item first, then the user and every snapshot. */
export function addAccountDeletion(app: RouteApp, { accounts }: PortfolioParts): void {
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
}
