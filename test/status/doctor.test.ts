import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { HOSTS, hostEnvName } from '../../src/upstream/hosts.js';
import { userAgentWarning } from '../../src/upstream/user-agent.js';
import { Registry, registry } from '../../src/sources/registry.js';
import { formatDoctor, runDoctor, type DoctorReport, type DoctorRow } from '../../src/status/doctor.js';
import { entryArgs } from '../helpers/entry.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await new Simulator(loadFixtures()).start();
});
afterAll(() => sim.close());
afterEach(() => {
  sim.clearFaults();
  sim.clearOverrides();
});

const CONTACT = { SVC_USER_AGENT: 'svc-test/1.0 (ops@svc-test.dev)' };
const doctor = (types: string[], env: Record<string, string> = {}) =>
  runDoctor(loadConfig({ ...sim.env(), ...CONTACT, ...env }), { types, deadlineMs: 1500 });
const rowOf = (report: DoctorReport, type: string) => report.rows.find((r) => r.type === type)!;

describe('the doctor (runDoctor against the simulator)', () => {
  it('reports each type with the upstream that answered, its latency and verdict ok', async () => {
    const report = await doctor(['forex', 'crypto-price']);
    expect(report.failed).toBe(0);
    expect(report.warnings).toEqual([]);
    expect(rowOf(report, 'forex')).toMatchObject<Partial<DoctorRow>>({
      q: 'EUR:USD',
      verdict: 'ok',
      source: 'frankfurter',
      reason: 'frankfurter answered',
      advice: [],
    });
    expect(rowOf(report, 'forex').latency_ms).toBeGreaterThanOrEqual(0);
    expect(rowOf(report, 'crypto-price')).toMatchObject({
      verdict: 'ok',
      source: 'coingecko',
      advice: [expect.stringMatching(/^commercial use: unclear .*see https:\/\/www\.coingecko\.com\/en\/api_terms$/) as string],
    });
  });

  it('a missing key: needs_key, the variable to set and where to get it', async () => {
    const report = await doctor(['twitch-top', 'energy-oil'], { UPSTREAM_TWITCH_AUTH_KEY: '', UPSTREAM_EIA_KEY: '' });
    expect(rowOf(report, 'twitch-top')).toMatchObject({
      verdict: 'needs_key',
      source: null,
      advice: ['set UPSTREAM_TWITCH_AUTH_KEY (get a key at https://dev.twitch.tv/console/apps)'],
    });
    expect(rowOf(report, 'energy-oil')).toMatchObject({
      verdict: 'degraded',
      source: 'fred-graph',
      reason: 'fred-graph answered as a fallback; eia needs a key',
      advice: ['set UPSTREAM_EIA_KEY (get a key at https://www.eia.gov/opendata/register.php)', expect.stringContaining('commercial use')],
    });
    expect(report.failed).toBe(1);
  });

  it('a 451/403 geo-block on every exchange: failing, and says the provider blocks this region', async () => {
    sim.fault('binance-futures', { kind: 'status', status: 451 });
    sim.fault('bybit', { kind: 'status', status: 403 });
    sim.fault('hyperliquid', { kind: 'status', status: 451 });
    const row = rowOf(await doctor(['funding-rates']), 'funding-rates');
    expect(row).toMatchObject({ verdict: 'failing', source: null });
    expect(row.reason).toBe('binance-futures refuses requests from this region (HTTP 451); no fallback answered');
    expect(row.advice[0]).toBe('binance-futures blocks this region or network: run svc from another, or rely on the fallback');
  });

  it('a 429: the fallback answers (degraded) and the advice says to retry or set the optional key', async () => {
    sim.fault('coingecko', { kind: 'status', status: 429, headers: { 'retry-after': '60' } });
    const row = rowOf(await doctor(['crypto-price']), 'crypto-price');
    // crypto-price corroborates: the first source used is Kraken (Binance quotes USDT, kept apart).
    expect(row).toMatchObject({ verdict: 'degraded', source: 'kraken' });
    expect(row.reason).toBe('kraken answered as a fallback; coingecko rate limited (HTTP 429)');
    expect(row.advice[0]).toBe('retry later, or set UPSTREAM_COINGECKO_KEY for a higher limit');
  });

  it('a changed response shape: failing, naming the upstream whose format changed', async () => {
    sim.serve({ host: 'frankfurter', path: '/v1/latest', body: { rates_moved_to: 'data' } });
    sim.fault('open-er-api', { kind: 'malformed' });
    sim.fault('yahoo', { kind: 'malformed' });
    const row = rowOf(await doctor(['forex']), 'forex');
    expect(row.verdict).toBe('failing');
    expect(row.reason).toContain('frankfurter answered in an unexpected shape');
    expect(row.advice[0]).toBe('frankfurter changed its response: update svc, or report the type as broken');
  });

  it('no network: every type fails fast with "unreachable", and upstreams that hang end at the deadline', async () => {
    const closed = Object.fromEntries(Object.keys(HOSTS).map((h) => [hostEnvName(h, 'URL'), `http://127.0.0.1:9/${h}`]));
    const report = await doctor(['forex', 'weather', 'stock-quote'], closed);
    expect(rowOf(report, 'forex')).toMatchObject({ verdict: 'failing', source: null });
    expect(rowOf(report, 'forex')).toMatchObject({
      reason: 'frankfurter could not be reached; no fallback answered',
      advice: [
        'check outbound network access to frankfurter (DNS, firewall, proxy)',
        // forex is corroborated: with no source answering, its rows cannot reach the quorum.
        'only 0 source(s) answer here, fewer than the quorum of 2: rows will be single_source or disputed (frankfurter erroring, open-er-api erroring, yahoo erroring)',
      ],
    });
    expect(report.rows.map((r) => r.verdict)).toEqual(['failing', 'failing', 'failing']);
    expect(report.failed).toBe(3);

    for (const host of ['open-meteo', 'met-no']) sim.fault(host, { kind: 'hang' });
    const hung = await runDoctor(loadConfig({ ...sim.env(), ...CONTACT }), { types: ['weather'], deadlineMs: 300 });
    expect(rowOf(hung, 'weather')).toMatchObject({
      verdict: 'failing',
      reason: 'open-meteo did not answer within the deadline; no fallback answered',
    });
  });

  it('skips the types it cannot start within the time budget (and counts them as failed)', async () => {
    for (const host of ['open-meteo', 'met-no']) sim.fault(host, { kind: 'delay', ms: 300 });
    const report = await runDoctor(loadConfig({ ...sim.env(), ...CONTACT }), {
      types: ['weather', 'forex'],
      concurrency: 1,
      budgetMs: 100,
    });
    expect(report.rows.map((r) => [r.type, r.verdict])).toEqual([
      ['weather', 'ok'],
      ['forex', 'skipped'],
    ]);
    expect(rowOf(report, 'forex')).toMatchObject({ reason: 'not run: the time budget was used up', latency_ms: null });
    expect(report.failed).toBe(1);
  });

  it('reports a type that refuses its own catalog example as failing, with the refusal', async () => {
    const forex = registry.get('forex')!;
    const broken = new Registry([{ ...forex, example: 'not a pair' }]);
    const report = await runDoctor(loadConfig({ ...sim.env(), ...CONTACT }), { registry: broken });
    expect(report.rows).toEqual([expect.objectContaining({ type: 'forex', verdict: 'failing', source: null })]);
    expect(report.rows[0]!.reason).toMatch(/^the catalog example was refused: /);
    expect(report.failed).toBe(1);
  });

  it('warns about the placeholder SVC_USER_AGENT and names it when an identifying host answers 403', async () => {
    sim.fault('sec-edgar', { kind: 'status', status: 403 });
    sim.fault('sec-efts', { kind: 'status', status: 403 });
    const report = await runDoctor(loadConfig({ ...sim.env(), SVC_USER_AGENT: '' }), { types: ['sec-edgar'], deadlineMs: 1500 });
    expect(report.warnings).toEqual([
      expect.stringMatching(/^SVC_USER_AGENT has a placeholder contact \("svc\/\d+\.\d+\.\d+ .*sec-edgar/) as string,
    ]);
    expect(rowOf(report, 'sec-edgar')).toMatchObject({
      reason: expect.stringMatching(/^sec-edgar refused the request \(HTTP 403/) as string,
      advice: ['set SVC_USER_AGENT to your name and contact address'],
    });
    expect(formatDoctor(report)).toMatch(/^warning: SVC_USER_AGENT has a placeholder contact/);
    expect(userAgentWarning('acme-data/1.0 (ops@acme.com)')).toBeUndefined();
  });
});

describe('npm run doctor (the command)', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [...entryArgs('src/status/doctor-cli.ts'), ...args], {
      env: { ...process.env, ...sim.env(), ...CONTACT, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('prints a table and exits 0 when every type works', async () => {
    // spawnSync would block the simulator living in this process: run the child asynchronously.
    const child = spawn(process.execPath, [...entryArgs('src/status/doctor-cli.ts'), '--types', 'forex,sec-edgar'], {
      env: { ...process.env, ...sim.env(), ...CONTACT },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    // The deployment checks come first (test/status/doctor-deployment.test.ts), then the types.
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe('deployment');
    lines.splice(0, lines.indexOf('') + 1);
    expect(lines[0]).toMatch(/^type +upstream +latency +verdict +what to do$/);
    expect(lines[1]).toMatch(/^forex +frankfurter +\d+ ms +ok +–$/);
    expect(lines.at(-1)).toBe('2 types: 2 ok, 0 degraded, 0 needs_key, 0 failing, 0 skipped');
  });

  it('--json for scripts, and exit 1 when a type fails', async () => {
    const child = spawn(process.execPath, [...entryArgs('src/status/doctor-cli.ts'), '--json', '--types', 'twitch-top'], {
      env: { ...process.env, ...sim.env(), ...CONTACT, UPSTREAM_TWITCH_AUTH_KEY: '' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    const report = JSON.parse(out) as DoctorReport;
    expect(report).toMatchObject({ failed: 1, warnings: [], rows: [{ type: 'twitch-top', verdict: 'needs_key', source: null }] });
  });

  it('refuses an unknown type or a bad number with exit 2', () => {
    const unknown = run(['--types', 'forex,nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--types: unknown data type nope');
    const bad = run(['--deadline-ms', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--deadline-ms: a positive whole number');
  });

  it('--help prints the usage and exits 0; an unknown option is a usage error (exit 2), not a stack trace', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: svc-doctor \[--json\]/);
    const unknown = run(['--frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^svc-doctor: Unknown option '--frobnicate'/);
    expect(unknown.stderr).toContain('usage: svc-doctor');
    expect(unknown.stderr).not.toContain('    at ');
  });
});

describe('SVC_USER_AGENT at start', () => {
  it('the service warns at start (outside the demo) while SVC_USER_AGENT has the placeholder contact', async () => {
    const closed = Object.fromEntries(Object.keys(HOSTS).map((h) => [hostEnvName(h, 'URL'), `http://127.0.0.1:9/${h}`]));
    const child = spawn(process.execPath, [...entryArgs('src/main.ts')], {
      env: {
        ...process.env,
        ...closed,
        PORT: '0',
        HOST: '127.0.0.1',
        SVC_SCHEDULER: '0',
        SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-ua-')),
        DATABASE_URL: '',
        REDIS_URL: '',
        SVC_USER_AGENT: '',
      },
    });
    let log = '';
    const listening = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        log += d.toString();
        if (log.includes('Server listening')) resolve();
      }),
    );
    await listening;
    child.kill('SIGTERM');
    const warning = log.split('\n').find((l) => l.includes('placeholder contact'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, msg: expect.stringContaining('set it, e.g. SVC_USER_AGENT=') as string });
  }, 60_000);
});
