import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { joinCluster } from '../../src/lifecycle/cluster-checks.js';
import { STARTUP_EXIT, StartupError } from '../../src/lifecycle/startup-errors.js';
import { verifyReceipt as verifyOffline, type ReceiptJwk } from '../../packages/client/src/receipt.js';
import { SHARED_STORE_BACKENDS, uniqueName } from '../helpers/backends.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';

/** A fresh Ed25519 key in the one-line form SVC_SIGNING_KEY takes. */
const newKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
});

/** Instances of one cluster: one database schema, one simulator and one clock. */
function clusterOf(common: TestAppOptions = {}) {
  const pgSchema = uniqueName('cluster');
  let first: TestApp | undefined;
  return async (env: Record<string, string>, options: TestAppOptions = {}) => {
    const app = await startTestApp({ postgres: true, pgSchema, ...common, ...options, env, sim: first?.sim, clock: first?.clock });
    first ??= app;
    apps.push(app);
    return app;
  };
}

async function refusal(join: Promise<unknown>): Promise<StartupError> {
  const error = await join.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
}

const preview = async (t: TestApp) => {
  const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin' } });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, unknown> & { _receipt: { kid: string } };
};
const verifyOn = (t: TestApp, body: Record<string, unknown>) =>
  t.app
    .inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: body._receipt, response: body } })
    .then((r) => r.json());
const publishedKeys = async (t: TestApp) =>
  (await t.app.inject('/.well-known/svc-receipt-pubkey.json')).json() as { kid: string; spki: string; jwk: ReceiptJwk; keys: ReceiptJwk[] };

describe.each(SHARED_STORE_BACKENDS)('a cluster on %s', () => {
  it(
    'rotates its signing key across two instances: old receipts keep verifying, the record moves forward, old keys are refused',
    { timeout: 90_000 },
    async () => {
      const start = clusterOf();
      const [oldKey, newerKey, strayKey] = [newKey(), newKey(), newKey()];
      const a = await start({ SVC_SIGNING_KEY: oldKey });
      expect(await joinCluster(a.deps)).toEqual({ kind: 'registered', kid: a.deps.signingKey.kid });
      const signedBefore = await preview(a);
      const published = await publishedKeys(a);
      expect(published.keys.map((k) => k.kid)).toEqual([published.kid]);

      // The new key takes over because the cluster's key is listed as previous (here in its public form, as published).
      const b = await start({ SVC_SIGNING_KEY: newerKey, SVC_SIGNING_KEYS_PREVIOUS: published.spki });
      expect(await joinCluster(b.deps)).toEqual({ kind: 'rotated', from: a.deps.signingKey.kid, kid: b.deps.signingKey.kid });
      expect(await b.deps.repos.cluster.currentKey()).toMatchObject({ kid: b.deps.signingKey.kid, current: 1 });

      const onB = await publishedKeys(b);
      expect(onB.kid).toBe(b.deps.signingKey.kid);
      expect(onB.keys.map((k) => k.kid)).toEqual([b.deps.signingKey.kid, a.deps.signingKey.kid]);
      expect(await verifyOn(b, signedBefore)).toMatchObject({ valid: true, kid: a.deps.signingKey.kid });
      expect(await verifyOffline(signedBefore, onB.keys)).toMatchObject({ valid: true, kid: a.deps.signingKey.kid });
      const signedAfter = await preview(b);
      expect(signedAfter._receipt.kid).toBe(b.deps.signingKey.kid);
      expect(await verifyOffline(signedAfter, onB.keys)).toMatchObject({ valid: true, checked: 'signature+response' });
      // The old instance, without the new key listed, cannot vouch for the new receipts: hence step 1 of the procedure.
      expect(await verifyOn(a, signedAfter)).toEqual({ valid: false, reason: 'unknown_kid' });

      // An instance still configured with the retired key, and one with a key of its own, are refused.
      const stale = await start({ SVC_SIGNING_KEY: oldKey });
      const retired = await refusal(joinCluster(stale.deps));
      expect([retired.variable, retired.exitCode]).toEqual(['SVC_SIGNING_KEY', STARTUP_EXIT.clusterKey]);
      expect(retired.message).toMatch(
        new RegExp(`^SVC_SIGNING_KEY: this key \\(kid ${a.deps.signingKey.kid}\\) was retired by a rotation`),
      );
      const stray = await start({ SVC_SIGNING_KEY: strayKey });
      const other = await refusal(joinCluster(stray.deps));
      expect(other.exitCode).toBe(STARTUP_EXIT.clusterKey);
      expect(other.message).toContain(`is not the cluster's (kid ${b.deps.signingKey.kid}`);
      expect(other.message).toContain('SVC_SIGNING_KEYS_PREVIOUS');
      expect(other.message).not.toContain('\n');
      expect(await b.deps.repos.cluster.currentKey()).toMatchObject({ kid: b.deps.signingKey.kid });
    },
  );

  it('refuses an instance without Redis while one with Redis is live, and the other way round', { timeout: 90_000 }, async () => {
    const key = newKey();
    const start = clusterOf({ redisPrefix: uniqueName('cluster') });
    const withRedis = await start({ SVC_SIGNING_KEY: key }, { redis: true });
    await joinCluster(withRedis.deps);
    const without = await start({ SVC_SIGNING_KEY: key });
    // While the newcomer watches, the live instance beats.
    const refused = await refusal(joinCluster(without.deps, () => withRedis.deps.cluster.beat()));
    expect([refused.variable, refused.exitCode]).toEqual(['REDIS_URL', STARTUP_EXIT.clusterRedis]);
    expect(refused.message).toMatch(
      /^REDIS_URL: unset, but 1 other live instance\(s\) share this database \(.+ pid \d+\): .+; set REDIS_URL/,
    );
    expect((await withRedis.deps.cluster.live()).map((i) => i.id)).toEqual([withRedis.deps.cluster.id]);

    const lone = clusterOf();
    const alone = await lone({ SVC_SIGNING_KEY: key });
    await joinCluster(alone.deps);
    const joining = await lone({ SVC_SIGNING_KEY: key }, { redis: true });
    const refusedToo = await refusal(joinCluster(joining.deps, () => alone.deps.cluster.beat()));
    expect(refusedToo.message).toMatch(/^REDIS_URL: 1 live instance\(s\) on this database run without REDIS_URL/);
  });

  it('does not count a row whose instance died without stopping (kill -9): a restart is not refused', { timeout: 60_000 }, async () => {
    const key = newKey();
    const start = clusterOf();
    const crashed = await start({ SVC_SIGNING_KEY: key });
    await joinCluster(crashed.deps);
    // Its heartbeat row stays (no clean stop) but nothing beats it any more.
    const row = (await crashed.deps.cluster.live())[0]!;
    const restarted = await start({ SVC_SIGNING_KEY: key }, { redis: true });
    await crashed.deps.repos.cluster.beat({ ...row, id: 'ghost' }, crashed.clock.now());
    await expect(joinCluster(restarted.deps, async () => {})).resolves.toMatchObject({ kind: 'kept' });
  });
});
