import type { HostHttp } from '../../upstream/client.js';
import { noData } from '../../upstream/errors.js';
import { FundingHistory, MetaAndAssetCtxs } from '../../upstream/formats/hyperliquid.js';
import type { Row } from '../define.js';
import { fundingRow } from './funding.js';

const HOUR_MS = 3_600_000;
/** Enough settled hours for the 8-hour average and the interval between settlements. */
const HISTORY_MS = 10 * HOUR_MS;

const info = <T>(http: HostHttp, body: object, schema: typeof MetaAndAssetCtxs | typeof FundingHistory, deadline: number) =>
  http.json<T>('/info', schema, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), deadline });

/**
 * Funding of a Hyperliquid perpetual: the live hourly rate and mark price from the asset contexts, the settled rates
 * of the last hours from the funding history. Perps are margined in USDC and settle every hour, on the hour.
 */
export async function hyperliquidFunding(http: HostHttp, symbol: string, nowMs: number, deadline: number): Promise<Row> {
  const [meta, history] = await Promise.all([
    info<MetaAndAssetCtxs>(http, { type: 'metaAndAssetCtxs' }, MetaAndAssetCtxs, deadline),
    info<FundingHistory>(http, { type: 'fundingHistory', coin: symbol, startTime: nowMs - HISTORY_MS }, FundingHistory, deadline),
  ]);
  // Names keep their case (`kPEPE`); the q is upper-cased.
  const index = meta[0].universe.findIndex((a) => a.name.toUpperCase() === symbol && !a.isDelisted);
  const ctx = meta[1][index];
  if (index < 0 || !ctx) throw noData(`Hyperliquid lists no ${symbol} perpetual`);
  const settled = history.map((h) => ({ rate: Number(h.fundingRate), at: h.time }));
  const nextHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
  return fundingRow(symbol, meta[0].universe[index]!.name, 'USDC', Number(ctx.funding), Number(ctx.markPx), nextHour, settled, nowMs);
}
