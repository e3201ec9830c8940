import { createHash } from 'node:crypto';
import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { sameSecret } from '../core/secrets.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { EntityResolver } from '../entities/resolver.js';
import type { PortfolioRepo, PortfolioUserRow } from '../store/repos/portfolio.js';
import type { PlaidLink } from './plaid.js';
import type { SecretBox } from './secret-box.js';
import {
  balancesOf,
  manualItem,
  mapManual,
  mapPlaid,
  transactionsOf,
  type Balance,
  type HoldingRow,
  type ManualHolding,
  type ManualItem,
  type TransactionRow,
  type Unmapped,
} from './holdings.js';
import type { WalletReader } from './wallets.js';

/** What one sync stores and returns. */
export interface Snapshot {
  user_id: string;
  /** Unix seconds of the sync. */
  as_of: number;
  source: 'plaid' | 'manual';
  holdings: HoldingRow[];
  balances: Balance[];
  unmapped: Unmapped[];
  transactions: TransactionRow[];
}

export interface SyncInput {
  public_token?: string;
  holdings?: ManualHolding[];
  /** Read-only wallets, `<chain>:<address>`. */
  wallets?: string[];
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Portfolio accounts: a user id claimed once with a token shown once (stored hashed), holdings
 * from Plaid or typed in, and deletion of everything. Plaid access tokens are stored sealed.
 */
export class PortfolioService {
  constructor(
    private readonly o: {
      repo: PortfolioRepo;
      clock: Clock;
      resolver: EntityResolver;
      wallets: WalletReader;
      plaid?: PlaidLink;
      box?: SecretBox;
    },
  ) {}

  /** A new user gets their token (once); an existing one must prove it and gets a fresh link_token only. */
  async link(
    userId: string,
    authorization: string | undefined,
  ): Promise<{ user_id: string; portfolio_token: string | null; link_token: string | null }> {
    const token = randomId('svc-pt_', 32);
    const created = await this.o.repo.create({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: this.o.clock.now(),
      plaid_item_id: null,
      plaid_token_enc: null,
    });
    if (!created) await this.owner(userId, authorization);
    try {
      const linkToken = this.o.plaid ? await this.o.plaid.linkToken(userId) : null;
      return { user_id: userId, portfolio_token: created ? token : null, link_token: linkToken };
    } catch (e) {
      // A token nobody received must not keep the id: the caller can simply retry.
      if (created) await this.o.repo.delete(userId);
      throw e;
    }
  }

  /** The user whose token this is; 401 without a bearer token, 403 when it is not this user's. */
  async owner(userId: string, authorization: string | undefined): Promise<PortfolioUserRow> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token)
      throw new ApiError('unauthorized', 'send Authorization: Bearer <portfolio_token> (POST /api/portfolio/link issues it)', {
        header: 'authorization',
      });
    const user = await this.o.repo.user(userId);
    if (!user || !sameSecret(hashToken(token), user.token_hash))
      throw new ApiError('forbidden', 'this portfolio_token does not belong to user_id', { field: 'user_id' });
    return user;
  }

  async sync(user: PortfolioUserRow, input: SyncInput): Promise<Snapshot> {
    const asOf = unixSeconds(this.o.clock);
    const base = { user_id: user.user_id, as_of: asOf };
    let snapshot: Snapshot;
    if (input.holdings || input.wallets) {
      const items = [...(input.holdings ?? []).map(manualItem), ...(await this.walletItems(input.wallets ?? []))];
      snapshot = { ...base, source: 'manual', ...mapManual(this.o.resolver, items), balances: [], transactions: [] };
    } else {
      const pull = await this.plaid().pull(
        await this.accessToken(user, input.public_token),
        new Date(asOf * 1000).toISOString().slice(0, 10),
      );
      snapshot = {
        ...base,
        source: 'plaid',
        ...mapPlaid(this.o.resolver, pull),
        balances: balancesOf(pull),
        transactions: transactionsOf(pull),
      };
    }
    await this.o.repo.addSnapshot(user.user_id, this.o.clock.now(), snapshot);
    return snapshot;
  }

  /** Each wallet's native coin (by symbol) and tokens (by contract) as holdings without cost basis. */
  private async walletItems(wallets: string[]): Promise<ManualItem[]> {
    const assets = await Promise.all(wallets.map((w, i) => this.o.wallets.assets(w, `wallets[${i}]`)));
    return assets.flat().map((a) => ({
      // A token is known by its contract alone: a symbol is free for anyone to copy.
      identifiers: a.contract ? { contract: a.contract } : { ticker: a.symbol },
      symbol: a.symbol,
      name: a.name,
      quantity: a.quantity,
      cost_basis: null,
      source: 'wallet',
    }));
  }

  async latest(user: PortfolioUserRow): Promise<Snapshot> {
    const snapshot = await this.o.repo.latestSnapshot<Snapshot>(user.user_id);
    if (!snapshot) throw new ApiError('not_found', 'no holdings yet: POST /api/portfolio/sync first', { field: 'user_id' });
    return snapshot;
  }

  /** Removes the Plaid item first (a failure keeps everything, so the call can be retried), then every row. */
  async delete(user: PortfolioUserRow): Promise<{ user_id: string; deleted: true; plaid_item_removed: boolean }> {
    const removed = Boolean(user.plaid_token_enc);
    if (user.plaid_token_enc) await this.plaid().remove(this.box().open(user.plaid_token_enc, user.user_id));
    await this.o.repo.delete(user.user_id);
    return { user_id: user.user_id, deleted: true, plaid_item_removed: removed };
  }

  /** Exchanges a public token once (a second item is a 409), else opens the stored one, re-sealing it under a rotated key. */
  private async accessToken(user: PortfolioUserRow, publicToken: string | undefined): Promise<string> {
    if (publicToken) {
      if (user.plaid_item_id)
        throw new ApiError(
          'conflict',
          'this user already has a linked account; sync without public_token, or DELETE /api/portfolio first',
          { field: 'public_token' },
        );
      const { accessToken, itemId } = await this.plaid().exchange(publicToken);
      await this.o.repo.setPlaidItem(user.user_id, itemId, this.box().seal(accessToken, user.user_id));
      return accessToken;
    }
    if (!user.plaid_token_enc || !user.plaid_item_id)
      throw new ApiError('validation_failed', 'send public_token (from Plaid Link) or holdings', { field: 'public_token' });
    const accessToken = this.box().open(user.plaid_token_enc, user.user_id);
    if (this.box().stale(user.plaid_token_enc))
      await this.o.repo.setPlaidItem(user.user_id, user.plaid_item_id, this.box().seal(accessToken, user.user_id));
    return accessToken;
  }

  private plaid(): PlaidLink {
    if (!this.o.plaid)
      throw new ApiError('validation_failed', 'account linking is not configured on this server (PLAID_CLIENT_ID); send holdings instead', {
        field: 'public_token',
      });
    return this.o.plaid;
  }

  private box(): SecretBox {
    if (!this.o.box) throw new ApiError('service_unavailable', 'SVC_SECRET_KEY is not configured');
    return this.o.box;
  }
}
