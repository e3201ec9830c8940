/**
 * Corroboration of one price across independent sources (issue 37), pure: no I/O, no clock. The rule follows the
 * oracle networks: drop sources that are stale or quote another currency, take the median of the rest, drop the
 * values further than a threshold from it as outliers (RedStone, Chainlink), and the price is the median of what is
 * left. Every source asked is listed with whether it was used and why not.
 */
export interface CorroborationRule {
  /** How many sources must agree within the threshold for the row to be `agreed`. */
  quorum: number;
  /** A value further than this from the median of all fresh values, in basis points, is an outlier. */
  outlierBps: number;
  /** A value observed more than this many seconds before the newest observation of the same item is stale. */
  staleAfterS: number;
  /** A source's own cap, from its publication schedule (a daily fixing is stale only once it missed one). */
  staleAfterSBySource?: Readonly<Record<string, number>>;
  /** The row's quote (USD), others kept apart as `quote_mismatch`; unset: the most common one (a listing currency). */
  quote?: string;
}

/** What one source said about one item: a value, or why it has none. */
export type Observation =
  /** `fetched`: the source gives no time, `as_of` is svc's fetch: never stale, and not the measure of the others. */
  | { source: string; value: number; quote: string; as_of: number; as_of_kind?: 'source' | 'fetched' }
  | { source: string; missing: 'not_listed' }
  | { source: string; missing: 'unavailable'; error: string };

export type Reason = 'outlier' | 'stale' | 'quote_mismatch' | 'unavailable' | 'not_listed';

export interface SourceVerdict {
  source: string;
  value?: number;
  quote?: string;
  as_of?: number;
  used: boolean;
  reason?: Reason;
  /** For `unavailable`: the upstream's failure reason (`no_key` when its key is not set). */
  error?: string;
}

export interface Corroboration {
  status: 'agreed' | 'disputed' | 'single_source';
  /** How many sources were used. */
  quorum: number;
  /** (max − min) / median of the used values, in basis points (two decimals). */
  spread_bps: number;
  sources: SourceVerdict[];
}

export interface Corroborated {
  /** The median of the used values, or of every fresh value when none lies within the threshold. */
  price: number;
  /** The quote of `price`: the rule's, or when no source answered in it, the quote most sources answered in. */
  quote: string;
  corroboration: Corroboration;
}

type Priced = Extract<Observation, { value: number }>;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  // The mean of the middle two, at 15 significant digits: 3499.65, not 3499.6499999999996.
  return sorted.length % 2 ? sorted[mid]! : Number(((sorted[mid - 1]! + sorted[mid]!) / 2).toPrecision(15));
}

/** Distance between two values in basis points of `from`. */
const bpsFrom = (from: number, value: number) => (Math.abs(value - from) / Math.abs(from)) * 10_000;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The quote to price in: the rule's when any source answered in it, else the most common one (ties: alphabetical). */
function pricingQuote(priced: Priced[], wanted: string | undefined): string {
  if (wanted !== undefined && priced.some((o) => o.quote === wanted)) return wanted;
  const counts = new Map<string, number>();
  for (const o of priced) counts.set(o.quote, (counts.get(o.quote) ?? 0) + 1);
  return [...counts].sort(([qa, a], [qb, b]) => b - a || qa.localeCompare(qb))[0]![0];
}

/** Why a priced observation is not a candidate for the median, if it is not. */
function exclusion(o: Priced, quote: string, newest: number, rule: CorroborationRule): Reason | undefined {
  if (o.quote !== quote) return 'quote_mismatch';
  const cap = rule.staleAfterSBySource?.[o.source] ?? rule.staleAfterS;
  if (o.as_of_kind !== 'fetched' && newest - o.as_of > cap) return 'stale';
  return undefined;
}

function verdictOf(o: Observation, reason: Reason | undefined): SourceVerdict {
  if ('missing' in o) return { source: o.source, used: false, reason: o.missing, ...('error' in o ? { error: o.error } : {}) };
  const { source, value, quote, as_of } = o;
  return { source, value, quote, as_of, used: reason === undefined, ...(reason ? { reason } : {}) };
}

/**
 * The corroborated price of one item, or undefined when no source priced it. The answer does not depend on the order
 * of `observations` except the order `sources` lists them in, which follows the input (callers pass declared order).
 */
export function corroborate(observations: readonly Observation[], rule: CorroborationRule): Corroborated | undefined {
  const priced = observations.filter((o): o is Priced => 'value' in o && Number.isFinite(o.value) && o.value > 0);
  if (priced.length === 0) return undefined;
  const quote = pricingQuote(priced, rule.quote);
  const newest = Math.max(...priced.filter((o) => o.quote === quote && o.as_of_kind !== 'fetched').map((o) => o.as_of));
  const reasons = new Map<Observation, Reason | undefined>(priced.map((o) => [o, exclusion(o, quote, newest, rule)]));
  const fresh = priced.filter((o) => reasons.get(o) === undefined);
  const center = median(fresh.map((o) => o.value));
  for (const o of fresh) if (bpsFrom(center, o.value) > rule.outlierBps) reasons.set(o, 'outlier');
  const used = fresh.filter((o) => reasons.get(o) === undefined).map((o) => o.value);
  const price = used.length ? median(used) : center;
  const spread = used.length ? ((Math.max(...used) - Math.min(...used)) / price) * 10_000 : 0;
  const status = fresh.length <= 1 ? 'single_source' : used.length >= rule.quorum ? 'agreed' : 'disputed';
  return {
    price,
    quote,
    corroboration: {
      status,
      quorum: used.length,
      spread_bps: round2(spread),
      sources: observations.map((o) => verdictOf(o, reasons.get(o))),
    },
  };
}
