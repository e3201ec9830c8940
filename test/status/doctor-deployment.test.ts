import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CHECK_DEADLINE_MS, runDeploymentChecks, type Finding } from '../../src/status/doctor-deployment.js';
import { freePort } from '../helpers/ports.js';
// With CI=true, a missing DATABASE_URL or REDIS_URL fails the run here rather than skipping the reachable-backends case.
import '../helpers/backends.js';
import { entryArgs } from '../helpers/entry.js';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-doctor-'));
const checks = (env: Record<string, string>) => runDeploymentChecks(loadConfig({ SVC_DATA_DIR: dataDir, ...env }));
const finding = (findings: Finding[], check: string) => findings.find((f) => f.check === check)!;

/** A port that accepts connections and never answers: a black hole for both probes. */
let silent: Server;
let silentPort: number;
beforeAll(async () => {
  silent = createServer(() => undefined).listen(0, '127.0.0.1');
  await once(silent, 'listening');
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(() => silent.close());

describe('the doctor: deployment checks', () => {
  it('a database and a Redis that refuse: fail, naming the URL without its password and what to do', async () => {
    const port = await freePort();
    const findings = await checks({ DATABASE_URL: `postgres://svc:secret@127.0.0.1:${port}/svc`, REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(finding(findings, 'database')).toMatchObject({
      level: 'fail',
      detail: expect.stringMatching(
        new RegExp(`^cannot connect to postgres://svc:\\*\\*\\*@127\\.0\\.0\\.1:${port}/svc \\(.*ECONNREFUSED`),
      ) as string,
      fix: 'start PostgreSQL or correct DATABASE_URL',
    });
    expect(JSON.stringify(findings)).not.toContain('secret');
    expect(finding(findings, 'redis')).toMatchObject({ level: 'fail', fix: 'start Redis or correct REDIS_URL' });
  });

  it('a database and a Redis that never answer: each check ends within its bounded wait', async () => {
    const started = Date.now();
    const findings = await checks({
      DATABASE_URL: `postgres://svc@127.0.0.1:${silentPort}/svc`,
      REDIS_URL: `redis://127.0.0.1:${silentPort}`,
    });
    expect(Date.now() - started).toBeLessThan(CHECK_DEADLINE_MS + 2000);
    expect(finding(findings, 'database').level).toBe('fail');
    expect(finding(findings, 'redis').level).toBe('fail');
  }, 20_000);

  it.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)(
    'a database and a Redis that answer: ok, with the time they took',
    async () => {
      const findings = await checks({ DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: process.env.REDIS_URL! });
      expect(finding(findings, 'database')).toMatchObject({ level: 'ok', detail: expect.stringMatching(/answered in \d+ ms$/) as string });
      expect(finding(findings, 'redis')).toMatchObject({ level: 'ok', detail: expect.stringMatching(/answered in \d+ ms$/) as string });
    },
  );

  it('PostgreSQL without Redis warns: one instance only', async () => {
    const port = await freePort();
    expect(finding(await checks({ DATABASE_URL: `postgres://svc@127.0.0.1:${port}/svc` }), 'redis')).toMatchObject({
      level: 'warn',
      detail: 'REDIS_URL is not set but DATABASE_URL is: fine for one instance only',
    });
  });

  it('the public URL and proxy trust must tell one story', async () => {
    const publicUrl = async (env: Record<string, string>) => finding(await checks(env), 'public URL');
    expect(await publicUrl({ SVC_PUBLIC_URL: 'https://svc.example.org' })).toMatchObject({
      level: 'fail',
      fix: 'set SVC_TRUST_PROXY=1 (one proxy) or to the proxy addresses',
    });
    expect(await publicUrl({ SVC_TRUST_PROXY: '1' })).toMatchObject({
      level: 'fail',
      detail: expect.stringContaining('SVC_PUBLIC_URL is http://localhost:8080') as string,
    });
    expect(await publicUrl({ SVC_PUBLIC_URL: 'https://svc.example.org', SVC_TRUST_PROXY: '3' })).toMatchObject({ level: 'warn' });
    expect(await publicUrl({ SVC_PUBLIC_URL: 'http://svc.example.org', SVC_TRUST_PROXY: '1' })).toMatchObject({ level: 'warn' });
    expect(await publicUrl({ SVC_PUBLIC_URL: 'https://svc.example.org', SVC_TRUST_PROXY: '10.0.0.0/8' })).toEqual({
      check: 'public URL',
      level: 'ok',
      detail: 'https://svc.example.org behind SVC_TRUST_PROXY=10.0.0.0/8',
    });
    expect(await publicUrl({})).toMatchObject({ level: 'ok', detail: 'http://localhost:8080' });
  });

  it('the data directory: its free space, or the parent svc will create it in', async () => {
    const here = finding(await checks({}), 'data directory');
    expect(here.detail).toMatch(new RegExp(`^${dataDir}: \\d+ MiB free \\(\\d+ %\\)$`));
    const later = finding(await checks({ SVC_DATA_DIR: join(dataDir, 'a/b') }), 'data directory');
    expect(later.detail).toMatch(new RegExp(`^${dataDir}/a/b \\(to be created in ${dataDir}\\): \\d+ MiB free`));
  });
});

describe('svc-doctor --skip-types (the command)', () => {
  const run = async (env: Record<string, string>) => {
    const child = spawn(process.execPath, [...entryArgs('src/status/doctor-cli.ts'), '--skip-types'], {
      env: { PATH: process.env.PATH, SVC_DATA_DIR: dataDir, ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = (await once(child, 'close')) as [number];
    return { code, lines: out.trimEnd().split('\n') };
  };

  it('prints one readable line per check and exits 0 when none fails', async () => {
    const { code, lines } = await run({});
    expect(code).toBe(0);
    expect(lines[0]).toBe('deployment');
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).slice(0, 2))).toEqual([
      ['ok', 'database'],
      ['ok', 'redis'],
      ['ok', 'signing key'],
      ['ok', 'public URL'],
      ['ok', 'data directory'],
    ]);
  }, 60_000);

  it('exits 1 when a check fails, saying what to do', async () => {
    const { code, lines } = await run({ SVC_PUBLIC_URL: 'https://svc.example.org' });
    expect(code).toBe(1);
    expect(lines.find((l) => l.startsWith('fail'))).toMatch(
      /^fail {2}public URL {6}https:\/\/svc\.example\.org is https.*: set SVC_TRUST_PROXY=1/,
    );
  }, 60_000);
});
