import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS, uniqueName } from '../helpers/backends.js';
import { LIVE_FOR_MS } from '../../src/lifecycle/cluster.js';
import { clusterKeyCheck, sameKeyCheck } from '../../src/status/doctor-cluster.js';
import type { Config } from '../../src/config.js';
import type { StatusReport } from '../../src/status/service.js';

const instances = async (t: TestApp) => (await t.app.inject({ url: '/api/v1/status' })).json<StatusReport>().instances;
const key = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

describe.each(SHARED_STORE_BACKENDS)('live instances on %s', () => {
  it(
    'counts only instances whose heartbeat is fresh: a stopped one drops out at once, a dead one after the TTL',
    { timeout: 90_000 },
    async () => {
      const shared = {
        postgres: true,
        redis: true,
        pgSchema: uniqueName('inst'),
        redisPrefix: uniqueName('inst'),
        env: { SVC_SIGNING_KEY: key() },
      };
      const a = await startTestApp(shared);
      opened.push(a);
      const b = await startTestApp({ ...shared, sim: a.sim, clock: a.clock });
      // An instance killed without a stop (kill -9): its row stays, nothing beats it any more.
      const dead = (await a.deps.cluster.live())[0]!;
      await a.deps.repos.cluster.beat({ ...dead, id: 'killed' }, a.clock.now());
      expect(await instances(a)).toBe(3);

      // A clean stop leaves at once, though its upstream figures stay in Redis for the window.
      await b.close();
      a.clock.advance(5_000); // the status re-reads at most every 5 s
      expect(await instances(a)).toBe(2);

      // The dead one stops counting once its heartbeat is older than the TTL.
      a.clock.advance(LIVE_FOR_MS - 5_000 + 1);
      await a.deps.cluster.beat();
      expect(await instances(a)).toBe(1);
    },
  );

  it('the doctor sees whether every live instance signs with the cluster key', { timeout: 90_000 }, async () => {
    const pgSchema = uniqueName('doc');
    const a = await startTestApp({ postgres: true, pgSchema, env: { SVC_SIGNING_KEY: key() } });
    opened.push(a);
    expect(await sameKeyCheck(a.deps.repos.cluster, a.clock)).toMatchObject({ ok: true });
    await a.deps.repos.cluster.register(a.deps.signingKey.kid, a.deps.signingKey.spki, a.clock.now());
    const b = await startTestApp({ postgres: true, pgSchema, sim: a.sim, clock: a.clock, env: { SVC_SIGNING_KEY: key() } });
    opened.push(b);
    const check = await sameKeyCheck(a.deps.repos.cluster, a.clock);
    expect(check.ok).toBe(false);
    expect(check.message).toContain(`1 of 2 live instances sign with another key than the cluster's (kid ${a.deps.signingKey.kid})`);
    expect(check.message).toContain(b.deps.signingKey.kid);

    // The same finding from svc-doctor's deployment check, which reads the shared database by its URL.
    const databaseUrl = `${process.env.DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${pgSchema}`)}`;
    const finding = await clusterKeyCheck(a.clock).run({ databaseUrl } as Config);
    expect(finding).toMatchObject({ level: 'fail', detail: expect.stringContaining('1 of 2 live instances') });
  });
});
