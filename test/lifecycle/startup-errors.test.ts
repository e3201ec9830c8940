import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { STARTUP_EXIT } from '../../src/lifecycle/startup-errors.js';
import { loadSigningKey } from '../../src/core/signing-keys.js';
import { SHARED_STORE_BACKENDS, openStore, uniqueName } from '../helpers/backends.js';
import { entryArgs } from '../helpers/entry.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-startup-'));
const aFile = join(scratch, 'not-a-directory');
writeFileSync(aFile, 'x');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs an entry point to its exit with only these resources configured; nothing listens on port 1. */
function start(entry: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, entryArgs(entry), {
    env: { PATH: process.env.PATH ?? '', PORT: '0', SVC_DATA_DIR: mkdtempSync(join(scratch, 'data-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

const newKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');

const CASES: { variable: string; code: number; env: Record<string, string> }[] = [
  {
    variable: 'DATABASE_URL',
    code: STARTUP_EXIT.database,
    env: { DATABASE_URL: 'postgres://svc:hunter2secret@127.0.0.1:1/svc', SVC_SIGNING_KEY: newKey() },
  },
  { variable: 'REDIS_URL', code: STARTUP_EXIT.redis, env: { REDIS_URL: 'redis://127.0.0.1:1' } },
  {
    variable: 'SVC_SIGNING_KEY',
    code: STARTUP_EXIT.signingKey,
    env: { SVC_SIGNING_KEY: 'bm90IGEga2V5IGF0IGFsbCwganVzdCBzb21lIHRleHQgaW4gYmFzZTY0' },
  },
  { variable: 'SVC_DATA_DIR', code: STARTUP_EXIT.dataDir, env: { SVC_DATA_DIR: aFile } },
];

describe('start-up errors', () => {
  it('give each named problem its own exit code', () => {
    expect(new Set(CASES.map((c) => c.code)).size).toBe(CASES.length);
    expect(CASES.map((c) => c.code)).not.toContain(2); // a bad configuration value (config.ts)
  });

  it.concurrent.each(CASES)(
    'src/main.ts: $variable is one line naming it and what to do, exit $code, no stack trace',
    async ({ variable, code, env }) => {
      const run = await start('src/main.ts', env);
      expect(run.status).toBe(code);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^svc cannot start: ${variable}: .+: .+`));
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stderr).not.toContain('hunter2secret');
      expect(run.stdout).toBe('');
    },
    60_000,
  );

  it.concurrent(
    'src/main.ts: a SVC_STREAM_WATCH type the registry does not know is a configuration problem (exit 2), as before the check left loadConfig',
    async () => {
      const run = await start('src/main.ts', { SVC_STREAM_WATCH: 'forex,nope' });
      expect(run.status).toBe(2);
      expect(run.stderr.trim()).toBe('invalid configuration: SVC_STREAM_WATCH: unknown data type "nope"');
      expect(run.stdout).toBe('');
    },
    60_000,
  );

  it.concurrent(
    'src/mcp/stdio.ts (in-process) checks the same before speaking MCP; stdout stays empty',
    async () => {
      const run = await start('src/mcp/stdio.ts', { REDIS_URL: 'redis://127.0.0.1:1' });
      expect(run.status).toBe(STARTUP_EXIT.redis);
      expect(run.stderr.trim()).toMatch(
        /^svc cannot start: REDIS_URL: cannot connect to redis:\/\/127\.0\.0\.1:1 \(.+; 5 tries\): start Redis/,
      );
      expect(run.stdout).toBe('');
    },
    60_000,
  );
});

/** A migrated schema of the test database whose cluster already signs with `clusterKey`, and a URL that selects it. */
async function clusterDatabase(clusterKey: string): Promise<string> {
  const schema = uniqueName('startup');
  const store = await openStore('postgres', schema);
  const key = loadSigningKey(clusterKey, scratch);
  await store.db
    .insertInto('signing_keys')
    .values({ kid: key.kid, spki: key.spki, registered_at: Date.now(), retired_at: null, current: 1 })
    .execute();
  await store.close();
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

describe.each(SHARED_STORE_BACKENDS)('start-up on a shared database (%s)', () => {
  const expectOneLine = (run: { stderr: string; stdout: string }, pattern: RegExp) => {
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(pattern);
    expect(run.stdout).toBe('');
  };

  it.concurrent(
    'without SVC_SIGNING_KEY is refused with the command that makes one (exit 22)',
    async () => {
      const run = await start('src/main.ts', { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: '' });
      expect(run.status).toBe(STARTUP_EXIT.signingKey);
      expectOneLine(
        run,
        /^svc cannot start: SVC_SIGNING_KEY: unset, but DATABASE_URL is shared .+: generate one with openssl genpkey -algorithm ed25519 -outform DER \| openssl base64 -A and give every instance the same SVC_SIGNING_KEY$/,
      );
    },
    60_000,
  );

  it.concurrent(
    "with a key other than the cluster's is refused (exit 24), naming both kids and the rotation",
    async () => {
      const clusterKey = newKey();
      const url = await clusterDatabase(clusterKey);
      const run = await start('src/main.ts', { DATABASE_URL: url, REDIS_URL: '', SVC_SIGNING_KEY: newKey() });
      expect(run.status).toBe(STARTUP_EXIT.clusterKey);
      const clusterKid = loadSigningKey(clusterKey, scratch).kid;
      expectOneLine(
        run,
        new RegExp(
          `^svc cannot start: SVC_SIGNING_KEY: this key \\(kid [\\w-]+\\) is not the cluster's \\(kid ${clusterKid}, since .+SVC_SIGNING_KEYS_PREVIOUS`,
        ),
      );
    },
    90_000,
  );
});
