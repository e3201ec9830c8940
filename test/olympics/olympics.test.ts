import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import { createOlympics } from '../../src/olympics/routes.js';
import type { ModelFakes } from '../fakes/models.js';
import { COINS, PANEL, servePrices, startPanel } from './helpers.js';
import { coinGeckoAlone } from '../helpers/corroboration.js';

const DAY_MS = 86_400_000;
type Answer = { model_id: string; status: string; p: number | null; claim_id: string | null; brier: number | null; medal: string | null };
type Event = { id: string; template: string; discipline: string; status: string; outcome: number | null; mode: string; answers: Answer[] };

let t: TestApp;
let fakes: ModelFakes;
let slot: number;
const events = async (query: Record<string, string> = {}) =>
  (await t.app.inject({ url: '/api/v1/olympics/events', query })).json().events as Event[];
const byTemplate = (list: Event[], template: string) => list.find((e) => e.template === template)!;
const answerOf = (e: Event, model: string) => e.answers.find((a) => a.model_id === model)!;

describe.each(STORE_BACKENDS)('olympics over HTTP on %s', (backend) => {
  beforeAll(async () => {
    const panel = await startPanel();
    fakes = panel.fakes;
    t = await startTestApp({ env: panel.env, postgres: backend === 'postgres' });
    slot = Math.floor(t.clock.now() / DAY_MS);
    servePrices(t.sim, [100, 50, 20, 1, 0.1]);
    await t.app.scheduler.tick(); // opens one event per template
  });
  afterAll(async () => {
    await t.close();
    await fakes.close();
  });

  it('opens one event per template and asks every panel model the same question over the same data', async () => {
    const list = await events();
    expect(list.map((e) => e.template).sort()).toEqual(['berlin_temp_24h', 'crypto_above_24h', 'top_gainer_24h', 'treasury_10y_week']);
    expect(new Set(list.map((e) => e.discipline))).toEqual(new Set(['crypto', 'macro', 'weather']));
    for (const event of list) {
      expect(event).toMatchObject({ status: 'open', mode: 'live', outcome: null });
      expect(event.answers.map((a) => a.model_id).sort()).toEqual([...PANEL].sort());
    }
    const berlin = byTemplate(list, 'berlin_temp_24h');
    expect(answerOf(berlin, 'm-google')).toMatchObject({ status: 'timed_out', p: null, claim_id: null });
    expect(answerOf(byTemplate(list, 'crypto_above_24h'), 'm-google')).toMatchObject({ status: 'failed', p: null });
    expect(answerOf(berlin, 'm-anthropic')).toMatchObject({ status: 'answered', p: 0.6 });

    // Same prompt and data for everyone: the question and the quoted data reached each vendor alike.
    const textOf = (c: (typeof fakes.calls)[number]) => c.messages.map((m) => m.text).join('');
    const prompts = fakes.calls.filter((c) => textOf(c).includes(`Of ${COINS.join(', ')}, will ${COINS[slot % COINS.length]!}`));
    expect(new Set(prompts.map((c) => c.model))).toEqual(new Set(PANEL));
    expect(new Set(prompts.map(textOf)).size).toBe(1);
    expect(new Set(prompts.map((c) => c.system)).size).toBe(1);

    const claim = await t.deps.store.db
      .selectFrom('calib_claims')
      .selectAll()
      .where('claim_id', '=', answerOf(berlin, 'm-openai').claim_id!)
      .executeTakeFirstOrThrow();
    expect(claim).toMatchObject({ agent_id: 'olympics:m-openai', kind: 'weather', predicted_p: 0.8, status: 'unresolved' });
  });

  it('serves an event with its data, verifiable receipts and resolver; 404 and 400 for unknown and malformed ids', async () => {
    const above = byTemplate(await events(), 'crypto_above_24h');
    const detail = (await t.app.inject(`/api/v1/olympics/events/${above.id}`)).json();
    const coin = ['bitcoin', 'ethereum'][slot % 2]!;
    const price = coin === 'bitcoin' ? 100 : 50;
    expect(detail.resolver).toEqual({ type: 'price_above', config: { coin, threshold_usd: price } });
    expect(detail.question).toContain(`above ${price} USD`);
    expect(detail.answer_deadline_ms).toBe(1000);
    const { _receipt, ...item } = detail.data[0];
    expect(item).toMatchObject({ type: 'crypto-price', q: coin, source: 'coingecko', rows: [{ coin, usd: price }] });
    const verified = (
      await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: _receipt, response: item } })
    ).json();
    expect(verified).toMatchObject({ valid: true });
    const tampered = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/receipt/verify',
        payload: { receipt: _receipt, response: { ...item, q: 'dogecoin' } },
      })
    ).json();
    expect(tampered.valid).toBe(false);

    expect((await t.app.inject('/api/v1/olympics/events/oly_000000000000000000000000')).statusCode).toBe(404);
    const bad = await t.app.inject('/api/v1/olympics/events/nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_failed');
  });

  it('a second run in the same slot opens nothing new', async () => {
    const calls = fakes.calls.length;
    t.clock.advance(60 * 60_000);
    await t.app.scheduler.tick();
    expect(await events()).toHaveLength(4);
    expect(fakes.calls.length).toBe(calls);
  });

  it('resolves due events with their resolvers, scores every model, awards medals with ties, and resolves the claims', async () => {
    servePrices(t.sim, [110, 52, 23, 1, 0.1]); // solana gains most, every coin but ripple and dogecoin is up
    t.clock.advance(DAY_MS);
    await t.app.scheduler.tick();
    const live = await events({ status: 'resolved' });
    const above = byTemplate(live, 'crypto_above_24h');
    expect(above.outcome).toBe(1);
    // p 0.8 / 0.8 tie for gold (Brier 0.04), so silver is skipped: 0.6 takes bronze; the failed model scores as p = 0.5.
    expect(answerOf(above, 'm-openai')).toMatchObject({ medal: 'gold' });
    expect(answerOf(above, 'm-mistral')).toMatchObject({ medal: 'gold' });
    expect(answerOf(above, 'm-anthropic')).toMatchObject({ medal: 'bronze' });
    expect(answerOf(above, 'm-google')).toMatchObject({ medal: null, brier: 0.25 });
    expect(answerOf(above, 'm-openai').brier).toBeCloseTo(0.04, 12);

    const gainer = byTemplate(live, 'top_gainer_24h');
    expect(gainer.outcome).toBe(COINS[slot % COINS.length] === 'solana' ? 1 : 0);
    const berlin = byTemplate(live, 'berlin_temp_24h');
    expect(berlin.outcome).toBe(0); // the simulator's temperature did not move: not strictly above
    expect(answerOf(berlin, 'm-anthropic')).toMatchObject({ medal: 'gold' });
    expect(answerOf(berlin, 'm-google')).toMatchObject({ status: 'timed_out', brier: 0.25, medal: null });
    expect(byTemplate(await events({ status: 'open' }), 'treasury_10y_week')).toBeDefined(); // resolves after a week

    const claim = await t.deps.store.db
      .selectFrom('calib_claims')
      .selectAll()
      .where('claim_id', '=', answerOf(above, 'm-anthropic').claim_id!)
      .executeTakeFirstOrThrow();
    expect(claim).toMatchObject({ status: 'resolved', outcome: 1, outcome_source: 'verified' });
  });

  it('serves the medal table and standings per discipline; failed models stay in the table', async () => {
    const medals = (await t.app.inject('/api/v1/olympics/medals')).json();
    expect(medals).toMatchObject({ mode: 'live', resolved_events: 3 });
    expect(medals.medal_table.map((s: { model_id: string }) => s.model_id)).toHaveLength(4);
    const google = medals.medal_table.find((s: { model_id: string }) => s.model_id === 'm-google');
    expect(google).toMatchObject({ events: 3, answered: 0, failed: 2, timed_out: 1, gold: 0, brier: 0.25, ece: null });
    expect(google.log_loss).toBeCloseTo(Math.LN2, 12);
    expect(medals.medal_table.at(-1).model_id).toBe('m-google');
    const weather = medals.by_discipline.find((d: { discipline: string }) => d.discipline === 'weather');
    expect(weather.standings[0]).toMatchObject({ model_id: 'm-anthropic', gold: 1, events: 1 });
    expect(medals.by_discipline.find((d: { discipline: string }) => d.discipline === 'macro').standings[0].events).toBe(0);
    expect(medals._receipt.v).toBe(1);
    expect((await t.app.inject('/api/v1/olympics/medals?mode=backfill')).json()).toMatchObject({ resolved_events: 0 });
  });

  it('pages events with a signed cursor and filters by discipline, status and mode', async () => {
    const first = (await t.app.inject({ url: '/api/v1/olympics/events', query: { limit: '3' } })).json();
    expect(first.events).toHaveLength(3);
    const second = (await t.app.inject({ url: '/api/v1/olympics/events', query: { limit: '3', cursor: first.next_cursor } })).json();
    const all = await events({ limit: '100' });
    expect([...first.events, ...second.events].map((e: Event) => e.id)).toEqual(
      all.slice(0, first.events.length + second.events.length).map((e) => e.id),
    );
    expect((await events({ discipline: 'weather' })).every((e) => e.discipline === 'weather')).toBe(true);
    expect(await events({ mode: 'backfill' })).toEqual([]);
    const forged = await t.app.inject({ url: '/api/v1/olympics/events', query: { cursor: 'oly1.abc.def' } });
    expect(forged.json()).toMatchObject({ error: 'invalid_cursor' });
    expect((await t.app.inject({ url: '/api/v1/olympics/events', query: { status: 'done' } })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/olympics/events', query: { limit: '0' } })).statusCode).toBe(400);
  });

  it('voids an event whose outcome stays unreadable past the grace period', async () => {
    for (const host of ['fred', 'fred-graph']) t.sim.fault(host, { kind: 'status', status: 400 });
    const olympics = await createOlympics(t.app, t.deps); // the resolution job alone, without opening new events
    t.clock.advance(7 * DAY_MS - 25 * 3600_000); // to the weekly event's resolves_at (the clock stood 25 h after its opening)
    expect(await olympics.resolveDue()).toMatchObject({ voided: 0 }); // unreadable, but still within the grace hour
    t.clock.advance(2 * 3600_000);
    expect(await olympics.resolveDue()).toMatchObject({ voided: 1 });
    t.sim.clearFaults();
    coinGeckoAlone(t.sim);
    const macro = (await events({ discipline: 'macro' })).find((e) => e.status !== 'open')!;
    expect(macro).toMatchObject({ status: 'void', outcome: null });
    expect(macro.answers.every((a) => a.brier === null && a.medal === null)).toBe(true);
  });
});
