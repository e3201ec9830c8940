import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attestationId } from '../../src/arena/attestations.js';
import { pnlPct, simulate } from '../../src/arena/paper-trader.js';
import { createArena } from '../../src/arena/routes.js';
import { LIVE_MAX_LAG_MS, type ArenaService } from '../../src/arena/service.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { HOUR, closeMs, wavyCandles } from './synthetic-candles.js';

const STRATEGY = 'rsi14_oversold';
const candles = wavyCandles(1500, 5);
const closedTrades = simulate(STRATEGY, candles, HOUR).filter((t) => t.exit_ts !== null);
/** The trade the "live job" sees: entered an hour before the clock, exited later. */
const liveTrade = closedTrades[Math.floor(closedTrades.length / 2)]!;
const candlesUntil = (ms: number) => candles.filter((_, i) => closeMs(i) <= ms);

describe.each(STORE_BACKENDS)('arena live and backfill trades on %s', (backend) => {
  let t: TestApp;
  let arena: ArenaService;
  beforeAll(async () => {
    t = await startTestApp({ postgres: backend === 'postgres' });
    arena = createArena(t.deps);
    // The scheduler's job catching up on history, then seeing the candle that triggers liveTrade an hour after it closed…
    t.clock.set(liveTrade.entry_ts + 3600_000);
    await arena.ingest(STRATEGY, 'BTC', candlesUntil(t.clock.now()), HOUR);
    // …and its exit 30 minutes after that candle closed.
    t.clock.set(liveTrade.exit_ts! + 1800_000);
    await arena.ingest(STRATEGY, 'BTC', candlesUntil(liveTrade.exit_ts!), HOUR);
    // The backfill replays the same history on ETH: every trade is backfill, the recent ones too.
    await arena.ingest(STRATEGY, 'ETH', candlesUntil(liveTrade.exit_ts!), HOUR, { replay: true });
  });
  afterAll(() => t.close());

  const tradesOf = (asset: string) =>
    t.deps.store.db.selectFrom('arena_trades').selectAll().where('asset', '=', asset).orderBy('entry_ts').execute();

  it('flags an entry live only when recorded within the lag of its candle close', async () => {
    const btc = await tradesOf('BTC');
    expect(btc.length).toBeGreaterThan(2);
    expect(btc.filter((r) => r.mode === 'live').map((r) => r.entry_ts)).toEqual([liveTrade.entry_ts]);
    expect(btc.every((r) => r.mode === 'live' || liveTrade.entry_ts + 3600_000 - r.entry_ts > LIVE_MAX_LAG_MS)).toBe(true);
    expect((await tradesOf('ETH')).map((r) => r.mode)).toEqual(btc.map(() => 'backfill'));
  });

  it('carries the mode in both attestations and the claim payload', async () => {
    const [backfilled, live] = [(await tradesOf('BTC'))[0]!, (await tradesOf('BTC')).find((r) => r.mode === 'live')!];
    for (const row of [backfilled, live]) {
      for (const event of ['enter', 'exit'] as const) {
        const attestation = (await t.app.inject(`/api/v1/arena/attestation/${attestationId(STRATEGY, 'BTC', row.entry_ts, event)}`)).json();
        expect(attestation, event).toMatchObject({ event, mode: row.mode });
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/v1/receipt/verify',
              payload: { receipt: attestation._receipt, response: attestation },
            })
          ).json().valid,
        ).toBe(true);
      }
      const claim = await t.deps.store.db
        .selectFrom('calib_claims')
        .selectAll()
        .where('claim_id', '=', row.claim_id!)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(claim.payload_json)).toMatchObject({ mode: row.mode, entry_ts: row.entry_ts });
      expect(claim).toMatchObject({ status: 'resolved', outcome_source: 'verified' });
    }
  });

  it('reports both counts and filters the headline figures by mode (default all)', async () => {
    const btc = (await tradesOf('BTC')).filter((r) => r.exit_ts !== null);
    const sum = (rows: typeof btc) => rows.reduce((s, r) => s + r.pnl_pct!, 0);
    const record = (mode?: string) =>
      t.app.inject({ url: '/api/v1/arena/track-record', query: { strategy: STRATEGY, asset: 'BTC', ...(mode ? { mode } : {}) } });
    const counts = { live_trade_count: 1, backfill_trade_count: btc.length - 1 };
    const all = (await record()).json();
    expect(all).toMatchObject({ mode: 'all', ...counts, trade_count: btc.length });
    expect(all.total_pnl_pct).toBe(sum(btc));
    const live = (await record('live')).json();
    expect(live).toMatchObject({ mode: 'live', ...counts, trade_count: 1, total_pnl_pct: pnlPct(liveTrade) });
    expect(live.chain).toEqual([expect.objectContaining({ trade_n: 1, mode: 'live', entry_ts: liveTrade.entry_ts })]);
    const backfill = (await record('backfill')).json();
    expect(backfill).toMatchObject({ mode: 'backfill', ...counts, trade_count: btc.length - 1 });
    expect(backfill.chain.every((c: { mode: string }) => c.mode === 'backfill')).toBe(true);
    expect(backfill._receipt.v).toBe(1);
    const bad = await record('paper');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.field).toBe('mode');
  });
});
