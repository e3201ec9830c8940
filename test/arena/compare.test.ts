import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareId } from '../../src/arena/compare.js';
import { ArenaRepo, type TradeRow } from '../../src/store/repos/arena.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';

const HOUR = 3600_000;
const DAY = 86_400_000;
/** 2026-03-01T00:00:00Z, plus 10 minutes: as_of_ts of a GET is the hour's start. */
const AS_OF = Date.UTC(2026, 2, 1);
const NOW = AS_OF + 10 * 60_000;

const trade = (strategy: string, asset: string, exitAgoMs: number, pnl: number, p: number, mode: TradeRow['mode'] = 'live'): TradeRow => ({
  strategy,
  asset,
  entry_ts: AS_OF - exitAgoMs - HOUR,
  entry_price: 100,
  predicted_p: p,
  signals_lit_json: '[]',
  claim_id: null,
  exit_ts: AS_OF - exitAgoMs,
  exit_price: 100 + pnl,
  exit_reason: 'max_hold',
  pnl_pct: pnl,
  mode,
});

/** Hand-computed fixture: the figures each test expects are worked out in its comments. */
const FIXTURE: TradeRow[] = [
  trade('rsi2_mean_reversion', 'BTC', 2 * DAY, 2, 0.5),
  trade('rsi2_mean_reversion', 'BTC', 1 * DAY, 1, 0.6),
  trade('rsi14_oversold', 'BTC', 3 * DAY, 5, 0.55),
  trade('rsi14_oversold', 'BTC', 1 * DAY, -1, 0.7),
  trade('trend_following', 'ETH', 5 * DAY, 10, 0.5, 'backfill'),
  trade('macd_bullish_div', 'SOL', 60 * DAY, -3, 0.6),
  // Another feature's strategy in the same table: never one of the 15.
  trade('chart-consensus', 'BTC', DAY, 100, 0.9),
  // Exits after as_of_ts: not yet known then.
  { ...trade('bollinger_bounce', 'SOL', 0, 7, 0.5), exit_ts: AS_OF + 60_000 },
];

describe.each(STORE_BACKENDS)('arena compare on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres' });
    t.clock.set(NOW);
    const repo = new ArenaRepo(t.deps.store.db);
    for (const row of FIXTURE) await repo.insertEntry(row);
  });
  afterAll(() => t.close());

  const compare = (query: string) => t.app.inject(`/api/v1/arena/compare?${query}`);
  const byAgent = (ranking: { agent_id: string }[]) => new Map(ranking.map((r) => [r.agent_id, r]));

  it('ranks the 15 combinations by P/L over live trades of the last 30 days, with every metric hand-computed', async () => {
    const res = await compare('window=30d&mode=live');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ event: 'compare', window: '30d', mode: 'live', as_of_ts: AS_OF, from_ts: AS_OF - 30 * DAY });
    expect(body.ranking).toHaveLength(15);
    expect(body.ranking.map((r: { agent_id: string }) => r.agent_id)).not.toContain('arena:chart-consensus:BTC');
    const [first, second, third] = body.ranking;
    // rsi14 BTC: 5 − 1 = 4; wins 1/2; mean 2, sd √((9 + 9)/1) = 4.2426 → 0.4714; Brier ((0.55 − 1)² + 0.7²)/2 = 0.34625.
    expect(first).toMatchObject({
      rank: 1,
      agent_id: 'arena:rsi14_oversold:BTC',
      trade_count: 2,
      total_pnl_pct: 4,
      win_rate: 0.5,
      ranks: { pnl: 1, win_rate: 2, sharpe_like: 2, calibration: 2 },
    });
    expect(first.sharpe_like).toBeCloseTo(2 / Math.sqrt(18), 12);
    expect(first.brier).toBeCloseTo(0.34625, 12);
    // rsi2 BTC: 2 + 1 = 3; wins 2/2; mean 1.5, sd √0.5 → 2.1213; Brier (0.25 + 0.16)/2 = 0.205.
    expect(second).toMatchObject({
      rank: 2,
      agent_id: 'arena:rsi2_mean_reversion:BTC',
      trade_count: 2,
      total_pnl_pct: 3,
      win_rate: 1,
      ranks: { pnl: 2, win_rate: 1, sharpe_like: 1, calibration: 1 },
    });
    expect(second.sharpe_like).toBeCloseTo(1.5 / Math.sqrt(0.5), 12);
    expect(second.brier).toBeCloseTo(0.205, 12);
    expect(second.latest_attestation).toBe(
      `arena-att:${createHash('sha256')
        .update(`rsi2_mean_reversion|BTC|${AS_OF - DAY - HOUR}|exit`)
        .digest('hex')
        .slice(0, 24)}`,
    );
    // Then 13 combinations without trades, P/L 0, in agent_id order, nulls last under the other metrics.
    expect(third).toMatchObject({
      rank: 3,
      agent_id: 'arena:bollinger_bounce:BTC',
      trade_count: 0,
      total_pnl_pct: 0,
      win_rate: null,
      sharpe_like: null,
      brier: null,
      latest_attestation: null,
      ranks: { win_rate: 3 },
    });
    expect(byAgent(body.ranking).get('arena:bollinger_bounce:SOL')).toMatchObject({ trade_count: 0 });
  });

  it('never counts a backfilled trade in mode=live, and does in mode=all and mode=backfill', async () => {
    const live = byAgent((await compare('window=30d&mode=live')).json().ranking);
    expect(live.get('arena:trend_following:ETH')).toMatchObject({ trade_count: 0, total_pnl_pct: 0 });
    const all = (await compare('window=30d&mode=all')).json().ranking;
    expect(all[0]).toMatchObject({
      rank: 1,
      agent_id: 'arena:trend_following:ETH',
      trade_count: 1,
      total_pnl_pct: 10,
      win_rate: 1,
      sharpe_like: null,
      brier: 0.25,
    });
    const backfill = (await compare('window=30d&mode=backfill')).json().ranking;
    expect(backfill.filter((r: { trade_count: number }) => r.trade_count > 0).map((r: { agent_id: string }) => r.agent_id)).toEqual([
      'arena:trend_following:ETH',
    ]);
  });

  it('widens the window: the 60-day-old loss counts in 90d and all, not in 30d', async () => {
    const ninety = (await compare('window=90d&mode=live')).json().ranking;
    // macd SOL: one loss of −3, below every zero-trade combination; win rate 0 beats their nulls; Brier 0.6² = 0.36.
    expect(ninety[14]).toMatchObject({
      rank: 15,
      agent_id: 'arena:macd_bullish_div:SOL',
      trade_count: 1,
      total_pnl_pct: -3,
      win_rate: 0,
      sharpe_like: null,
      ranks: { win_rate: 3, calibration: 3 },
    });
    expect(ninety[14].brier).toBeCloseTo(0.36, 12);
    expect((await compare('window=all&mode=live')).json().from_ts).toBeNull();
    expect(byAgent((await compare('window=30d&mode=live')).json().ranking).get('arena:macd_bullish_div:SOL')!).toMatchObject({
      trade_count: 0,
    });
  });

  it('derives the id from window, mode and as_of_ts like the trade attestations', async () => {
    const body = (await compare('window=90d&mode=all')).json();
    const expected = createHash('sha256').update(`compare|90d|all|${AS_OF}`).digest('hex').slice(0, 24);
    expect(body.id).toBe(expected);
    expect(compareId('90d', 'all', AS_OF)).toBe(expected);
    expect(body.attestation).toBe(`arena-att:${expected}`);
    expect(body.attestation_id_formula).toContain('compare|<window>|<mode>|<as_of_ts>');
  });

  it('serves a past comparison byte for byte from the attestation URL, with a receipt that verifies', async () => {
    const first = await compare('window=30d&mode=all');
    const id = first.json().id as string;
    // A trade closing later in the hour changes nothing already attested.
    await new ArenaRepo(t.deps.store.db).insertEntry({ ...trade('rsi2_mean_reversion', 'ETH', 0, 50, 0.5), exit_ts: AS_OF - 1 });
    expect((await compare('window=30d&mode=all')).payload).toBe(first.payload);
    t.clock.set(NOW + HOUR);
    const next = (await compare('window=30d&mode=all')).json();
    expect(next.id).not.toBe(id);
    expect(next.ranking[0]).toMatchObject({ agent_id: 'arena:rsi2_mean_reversion:ETH', total_pnl_pct: 50 });
    const later = await t.app.inject(`/api/v1/arena/attestation/${id}`);
    expect(later.statusCode).toBe(200);
    expect(later.payload).toBe(first.payload);
    const verdict = await t.app.inject({
      method: 'POST',
      url: '/api/v1/receipt/verify',
      payload: { receipt: later.json()._receipt, response: later.json() },
    });
    expect(verdict.json().valid).toBe(true);
    t.clock.set(NOW);
  });

  it('issues one daily comparison per window and mode from the scheduler, as of 00:00 UTC', async () => {
    const day = AS_OF + DAY;
    const issued = (window: '30d' | '90d' | 'all', mode: 'live' | 'backfill' | 'all') =>
      t.app.inject(`/api/v1/arena/attestation/${compareId(window, mode, day)}`);
    expect((await issued('30d', 'live')).statusCode).toBe(404);
    t.clock.set(day + 5 * HOUR);
    await t.app.scheduler.tick();
    for (const window of ['30d', '90d', 'all'] as const) {
      for (const mode of ['live', 'backfill', 'all'] as const) {
        const res = await issued(window, mode);
        expect(res.statusCode, `${window} ${mode}`).toBe(200);
        expect(res.json()).toMatchObject({ event: 'compare', window, mode, as_of_ts: day });
      }
    }
    t.clock.set(NOW);
  });

  it('refuses an unknown window or mode with a 400 naming it', async () => {
    const res = await compare('window=7d');
    expect(res.statusCode).toBe(400);
    expect(res.json().details.field).toBe('window');
    expect((await compare('mode=paper')).json().details.field).toBe('mode');
  });
});
