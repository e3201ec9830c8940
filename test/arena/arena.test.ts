import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attestationId } from '../../src/arena/attestations.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// The pure parts (indicators, strategies, track record, attestation ids) are tested in the other files here.
describe('arena over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.scheduler.tick(); // runs the arena job over the simulator's hourly klines
  });
  afterAll(() => t.close());

  it('takes an asset in crypto-price’s vocabulary; one it cannot price is a 400 saying which it trades', async () => {
    const record = (q: string) =>
      t.app.inject({ url: '/api/v1/arena/track-record', query: { strategy: 'rsi14_oversold', asset: q } }).then((r) => r.json());
    const btc = await record('BTC');
    for (const q of ['bitcoin', 'btc', 'svc-ent:cr.bitcoin']) expect(await record(q), q).toEqual({ ...btc, _receipt: expect.anything() });
    for (const q of ['DOGE', 'dogecoin', 'AAPL', 'not a coin!']) {
      const refused = await record(q);
      expect(refused, q).toMatchObject({
        error: 'validation_failed',
        details: { field: 'asset', rule: 'arena_asset', allowed: ['BTC', 'ETH', 'SOL'] },
      });
      expect(refused.message).toMatch(/trades BTC, ETH, SOL only/);
    }
  });

  it('records trades with claims and signed attestations, and serves the track record', async () => {
    const rows = await t.deps.store.db.selectFrom('arena_trades').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const closed = rows.find((r) => r.exit_ts !== null)!;
    const record = (
      await t.app.inject({ url: '/api/v1/arena/track-record', query: { strategy: closed.strategy, asset: closed.asset } })
    ).json();
    expect(record).toMatchObject({ agent_id: `arena:${closed.strategy}:${closed.asset}`, strategy: closed.strategy, asset: closed.asset });
    expect(record.trade_count).toBeGreaterThan(0);
    expect(record.attestation_id_formula).toContain('SHA-256');
    expect(record._receipt.v).toBe(1);

    const entryId = attestationId(closed.strategy, closed.asset, closed.entry_ts, 'enter');
    const entry = (await t.app.inject(`/api/v1/arena/attestation/${entryId}`)).json();
    expect(entry).toMatchObject({ id: entryId, event: 'enter', claim_id: closed.claim_id, entry_price: closed.entry_price });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: entry._receipt, response: entry } })).json(),
    ).toMatchObject({ valid: true });
    const exitUrl = record.chain[0].outcome_attestation_url.replace('http://svc.test', '');
    expect((await t.app.inject(exitUrl)).json()).toMatchObject({ event: 'exit' });

    const claim = await t.deps.store.db
      .selectFrom('calib_claims')
      .selectAll()
      .where('claim_id', '=', closed.claim_id!)
      .executeTakeFirstOrThrow();
    expect(claim).toMatchObject({
      agent_id: `arena:${closed.strategy}:${closed.asset}`,
      status: 'resolved',
      outcome: closed.pnl_pct! > 0 ? 1 : 0,
    });
  });

  it('404 for an unknown attestation, 400 for a malformed id; a second run adds no duplicates', async () => {
    expect((await t.app.inject('/api/v1/arena/attestation/000000000000000000000000')).statusCode).toBe(404);
    expect((await t.app.inject('/api/v1/arena/attestation/xyz')).statusCode).toBe(400);
    const before = (await t.deps.store.db.selectFrom('arena_trades').select('entry_ts').execute()).length;
    t.clock.advance(15 * 60_000);
    await t.app.scheduler.tick();
    expect((await t.deps.store.db.selectFrom('arena_trades').select('entry_ts').execute()).length).toBe(before);
  });
});
