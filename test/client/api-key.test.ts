import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SvcHttpError, createClient } from '../../packages/client/src/index.js';
import { entryArgs } from '../helpers/entry.js';

/** The SDK's `apiKey` against a listening service: a key issued, listed and revoked through the admin routes. */
const ADMIN = 'admin-token-for-the-sdk-key-test';
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_ADMIN_TOKEN: ADMIN, SVC_RATE_ANON_PER_MIN: '60', SVC_RATE_KEY_PER_MIN: '600' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const admin = async (method: string, path: string, body?: object) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

describe('the SDK with an API key', () => {
  it('sends the key as X-API-Key: the key tier answers, and a revoked key is refused on requests and streams', async () => {
    const issued = (await admin('POST', '/api/v1/admin/keys', { name: 'sdk test', tier: 'standard' })) as { id: string; key: string };
    const keyed = createClient({ baseUrl: base, apiKey: issued.key });

    const tierOf = async (client: ReturnType<typeof createClient>) => client.metaOf(await client.catalog())?.rateLimit?.policy;
    expect(await tierOf(keyed)).toBe('standard');
    expect(await tierOf(createClient({ baseUrl: base }))).toBe('anonymous');

    const listed = (await admin('GET', '/api/v1/admin/keys')) as { keys: { id: string; name: string; revoked_at: number | null }[] };
    expect(listed.keys.find((k) => k.id === issued.id)).toMatchObject({ name: 'sdk test', revoked_at: null });
    expect(JSON.stringify(listed)).not.toContain(issued.key);

    const session = await createClient({ baseUrl: base }).sessions.start({ label: 'key test' });
    expect(await admin('DELETE', `/api/v1/admin/keys/${issued.id}`)).toEqual({ id: issued.id, revoked: true });
    const refused = await keyed.catalog().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SvcHttpError);
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized' });
    const streamRefused = await keyed.sessions
      .watch(session.session_id)
      .next()
      .catch((e: unknown) => e);
    expect(streamRefused).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('the CLI sends SVC_API_KEY the same way: a valid key is served, a revoked one refused (exit 3)', async () => {
    const issued = (await admin('POST', '/api/v1/admin/keys', { name: 'cli test', tier: 'standard' })) as { id: string; key: string };
    expect(await svcCli(['catalog', '--json'], issued.key)).toMatchObject({ code: 0 });
    await admin('DELETE', `/api/v1/admin/keys/${issued.id}`);
    const refused = await svcCli(['catalog', '--json'], issued.key);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('401');
  });
});

const CLI = entryArgs('packages/client/src/cli.ts');

/** The `svc` CLI as a child process against the listening service, with `apiKey` in SVC_API_KEY. */
function svcCli(args: string[], apiKey: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, SVC_BASE_URL: base, SVC_API_KEY: apiKey, SVC_WALLET_KEY: '', SVC_PASS: '' };
    execFile(process.execPath, [...CLI, ...args], { env, timeout: 60_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}
