import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { uniqueName } from '../helpers/backends.js';
import type { ModelFakes } from '../fakes/models.js';
import { createOlympics } from '../../src/olympics/routes.js';
import { servePrices, startPanel } from './helpers.js';

/** Two instances on one Postgres: the scheduled jobs run once between them, and each event is asked once. */
describe.runIf(Boolean(process.env.DATABASE_URL))('olympics across two instances (Postgres)', () => {
  let a: TestApp;
  let b: TestApp;
  let fakes: ModelFakes;
  beforeAll(async () => {
    const panel = await startPanel();
    fakes = panel.fakes;
    const common = { postgres: true, pgSchema: uniqueName('oly'), env: panel.env };
    a = await startTestApp(common);
    b = await startTestApp({ ...common, sim: a.sim, clock: a.clock });
    servePrices(a.sim, [100, 50, 20, 1, 0.1]);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await fakes.close();
  });

  it('opens each event once, even when both instances run the job at the same moment', async () => {
    await Promise.all([a.app.scheduler.tick(), b.app.scheduler.tick()]);
    const events = await a.deps.store.db.selectFrom('olympics_events').select('id').execute();
    expect(events).toHaveLength(4);
    const calls = fakes.calls.length;
    // Without the scheduler's lease (two services calling the opening pass directly), the event ids still keep it to one.
    const [fromA, fromB] = await Promise.all([
      (await createOlympics(a.app, a.deps)).openDue(),
      (await createOlympics(b.app, b.deps)).openDue(),
    ]);
    expect(fromA + fromB).toBe(0);
    expect(fakes.calls.length).toBe(calls);
    const answers = await a.deps.store.db.selectFrom('olympics_answers').select(['event_id', 'model_id']).execute();
    expect(answers).toHaveLength(16);
  });
});
