import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import { liquidationsViaEtherscan, liquidationsViaRpc, MAX_EVENTS } from './lib/aave-v3-ethereum.js';
import { defineSource, type Row } from './define.js';

/** Only protocols with a public, keyless request/response source (Binance and Bybit publish liquidations on WebSockets only). */
const PROTOCOLS = { aave: 'aave-v3', 'aave-v3': 'aave-v3', okx: 'okx' } as const;
type Protocol = (typeof PROTOCOLS)[keyof typeof PROTOCOLS];

export function parseProtocol(q: string): Protocol {
  const name = q.trim().toLowerCase();
  // Own keys only: `__proto__` or `constructor` are names asked for, not properties of every object.
  const protocol = Object.hasOwn(PROTOCOLS, name) ? PROTOCOLS[name as keyof typeof PROTOCOLS] : undefined;
  if (!protocol)
    throw invalidQ(
      `<protocol_name>, one of: ${Object.keys(PROTOCOLS).join(', ')}`,
      'aave',
      q ? `no liquidation feed for "${q}"` : 'q is required',
    );
  return protocol;
}

/** OKX perpetual swaps: filled liquidation orders of roughly the last day (40 requests / 2 s per IP). */
const OkxOrders = Type.Object({
  code: Type.String(),
  msg: Type.String(),
  data: Type.Array(
    Type.Object({
      instId: Type.String(),
      details: Type.Array(
        Type.Object({
          side: Type.String(),
          posSide: Type.String(),
          bkPx: Type.String(),
          sz: Type.String(),
          bkLoss: Type.String(),
          ts: Type.String(),
        }),
      ),
    }),
  ),
});
type OkxOrders = Type.Static<typeof OkxOrders>;
const OKX_FAMILY = 'BTC-USDT';

/** `side: sell` closes a long, `buy` a short (posSide is `net` in one-way mode); sizes stay in contracts. */
export function fromOkx(raw: OkxOrders): Row[] {
  if (raw.code !== '0')
    throw new UpstreamError(raw.code === '50011' ? 'upstream_rate_limited' : 'upstream_error', `OKX ${raw.code}: ${raw.msg}`);
  const orders = raw.data.flatMap((inst) => inst.details.map((d) => ({ instrument: inst.instId, ...d, at: Number(d.ts) })));
  if (orders.length === 0) throw noData(`OKX lists no filled ${OKX_FAMILY} swap liquidation`);
  return orders
    .sort((a, b) => b.at - a.at)
    .slice(0, MAX_EVENTS)
    .map((o) => ({
      protocol: 'okx',
      instrument: o.instrument,
      liquidated_at: Math.floor(o.at / 1000),
      position_side: o.posSide === 'long' || o.posSide === 'short' ? o.posSide : o.side === 'sell' ? 'long' : 'short',
      bankruptcy_price: Number(o.bkPx),
      size_contracts: Number(o.sz),
      bankruptcy_loss: Number(o.bkLoss),
    }));
}

const ROUTES: Record<Protocol, HostName[]> = { 'aave-v3': ['eth-rpc', 'etherscan'], okx: ['okx'] };

/**
 * Rows, newest first (up to 10). aave-v3: protocol, chain, liquidated_at (Unix s), user, liquidator,
 * collateral_asset, collateral_symbol, collateral_amount, debt_asset, debt_symbol, debt_amount (token units;
 * null for unlisted reserves), receive_a_token, tx_hash, block. okx (BTC-USDT perpetual): protocol, instrument,
 * liquidated_at, position_side (the side liquidated), bankruptcy_price, size_contracts, bankruptcy_loss.
 */
export default defineSource<Protocol>({
  type: 'liquidations',
  categories: ['crypto', 'trader', 'defi'],
  qShape: '<protocol_name>',
  example: 'aave',
  desc: '`<protocol_name>`; recent liquidation events',
  parseQ: parseProtocol,
  keyOf: (protocol) => protocol,
  ttlSeconds: 60,
  deadlineMs: 8000,
  order: (protocol) => ROUTES[protocol],
  upstreams: {
    'eth-rpc': (_p, { http, deadline }) => liquidationsViaRpc(http, deadline),
    etherscan: (_p, { http, deadline, clock }) => liquidationsViaEtherscan(http, deadline, Math.floor(clock.now() / 1000)),
    okx: async (_p, { http, deadline }) =>
      fromOkx(
        await http.json<OkxOrders>('/api/v5/public/liquidation-orders', OkxOrders, {
          deadline,
          query: { instType: 'SWAP', instFamily: OKX_FAMILY, state: 'filled', limit: 100 },
        }),
      ),
  },
});
