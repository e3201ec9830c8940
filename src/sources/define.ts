import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { HostHttp } from '../upstream/client.js';
import type { HostName } from '../upstream/hosts.js';
import type { NextUpdate } from './freshness.js';
import type { CorroborationSpec } from './corroborated-rows.js';

/** One normalized row: snake_case fields, units in the names where ambiguous (price_usd, temp_c). */
export type Row = Record<string, unknown>;

export interface FetchContext {
  /** The client bound to the upstream this fetcher is registered under. */
  http: HostHttp;
  /** Another upstream, for types that combine two (e.g. headlines + an index). */
  upstream: (name: HostName) => HostHttp;
  /** Epoch ms by which every call of this fetch must finish; pass it to each call. */
  deadline: number;
  clock: Clock;
  config: Config;
}

/**
 * Fetches and normalizes rows from one upstream. Sets `as_of` (Unix s) on rows when the upstream says when it
 * observed them; the runner fills in `source`, any missing `as_of` and the other freshness fields (freshness.ts).
 * Throws UpstreamError (e.g. `noData()`) on failure.
 */
export type Fetcher<Q> = (q: Q, ctx: FetchContext) => Promise<Row[]>;

/** Entity fields a type may use to translate `entity=` into its own q. */
export interface EntityLike {
  id: string;
  type: string;
  ids: Record<string, string | undefined>;
  contracts?: Record<string, string>;
}

export interface SourceDescriptor<Q = unknown> {
  /** Exactly the catalog type. */
  type: string;
  categories: readonly string[];
  /** A sample q; empty when the type takes none. */
  example: string;
  desc: string;
  /** The q shape as the spec words it, e.g. `<lat>,<lon>`; used in 400 messages and docs. */
  qShape: string;
  /** Every form of q the type accepts (catalog `q_forms`), when more than `qShape`; entity ids are added for types with `entityQ`. */
  qForms?: readonly string[];
  /** string → typed query; throws `invalidQ(...)` for a malformed q. */
  parseQ(q: string): Q;
  /** Canonical text of a parsed query: the cache and history key, so `BTC` and `btc` share an entry. */
  keyOf?(q: Q): string;
  /** Upstreams in priority order: the first is primary, the rest are fallbacks. */
  upstreams: Partial<Record<HostName, Fetcher<Q>>>;
  /**
   * Price types asked of every upstream at once and answered with their median and a `corroboration` block naming
   * each source (docs/corroboration.md), instead of the first upstream that answers.
   */
  corroboration?: CorroborationSpec;
  /** When the query picks the primary (order-book's `<exchange>:`), the upstreams in the order to try. */
  order?(q: Q): HostName[];
  /**
   * Last resort from a versioned data file in the repo (`source: 'curated'`), used when every
   * upstream failed or when the type has none. Rows carry the file's own `as_of`.
   */
  curated?: (q: Q, ctx: Pick<FetchContext, 'clock' | 'config'>) => Promise<Row[]> | Row[];
  /** q names an instrument (a coin, ticker or pair): when every upstream refuses it, the answer is `unknown_symbol`, not an outage. */
  namesInstrument?: boolean;
  /** The instrument in a q key, where "did you mean" looks (`binance:ETHH-USDT` → `ETHH`); the whole q by default. */
  instrumentOf?(key: string): string;
  ttlSeconds: number;
  /** For an upstream that publishes on a schedule: when it next publishes after a row observed at `asOfS` (rows' `next_update_at`). */
  nextUpdate?: NextUpdate;
  deadlineMs: number;
  entityQ?(entity: EntityLike): string | undefined;
}

export function defineSource<Q>(descriptor: SourceDescriptor<Q>): SourceDescriptor<Q> {
  return descriptor;
}

/** The upstreams to try for a query, in order: the query's own order when the type has one, else as declared. */
export function upstreamOrder<Q>(descriptor: SourceDescriptor<Q>, q: Q): [HostName, Fetcher<Q>][] {
  const declared = Object.entries(descriptor.upstreams) as [HostName, Fetcher<Q>][];
  const order = descriptor.order?.(q);
  return order ? order.map((host) => declared.find(([name]) => name === host)!) : declared;
}
