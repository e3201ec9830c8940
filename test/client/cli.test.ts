import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO } from '../helpers/x402.js';
import { WallClock } from './wall-clock.js';
import { entryArgs } from '../helpers/entry.js';

/**
 * The `svc` CLI as a user runs it, a child process, against a listening service: its transpiled copy
 * (test/helpers/entry.ts), not `npx tsx`, which adds seconds per call on a loaded machine.
 */
const CLI = entryArgs('packages/client/src/cli.ts');
let t: TestApp;
let base: string;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function svc(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      { env: { ...process.env, SVC_BASE_URL: base, SVC_WALLET_KEY: '', SVC_PASS: '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_PAY_TO: PAY_TO }, clock: new WallClock() });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('svc CLI', { timeout: 120_000 }, () => {
  it('svc catalog --json prints the catalog body; without --json a table', async () => {
    const [json, human] = await Promise.all([svc(['catalog', '--json']), svc(['catalog'])]);
    expect(json.code, json.stderr).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.count).toBe(43);
    expect(body.data_types.map((d: { type: string }) => d.type)).toContain('crypto-price');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^TYPE\s+CATEGORIES\s+EXAMPLE\s+DESC\n-+/);
    expect(human.stdout).toContain('43 types');
  });

  it('svc query prints the row; svc verify accepts the saved body (exit 0) and rejects it tampered by one byte (exit 1)', async () => {
    const [query, human] = await Promise.all([
      svc(['query', 'crypto-price', 'bitcoin', '--json', '--max-age', '60']),
      svc(['query', 'crypto-price', 'bitcoin']),
    ]);
    expect(query.code, query.stderr).toBe(0);
    expect(JSON.parse(query.stdout)).toMatchObject({ ok: true, type: 'crypto-price', q: 'bitcoin' });
    expect(human.stdout).toMatch(/_cursor\s+svc-cur:/);

    const saved = join(dir, 'answer.json');
    writeFileSync(saved, query.stdout);
    const tampered = join(dir, 'tampered.json');
    const text = readFileSync(saved, 'utf8');
    const at = text.indexOf('"q":"bitcoin"') + '"q":"bitcoi'.length;
    writeFileSync(tampered, `${text.slice(0, at)}N${text.slice(at + 1)}`);
    const receipt = join(dir, 'receipt.json');
    writeFileSync(receipt, JSON.stringify(JSON.parse(text)._receipt));

    const [good, bad, bare] = await Promise.all([svc(['verify', saved]), svc(['verify', tampered, '--json']), svc(['verify', receipt])]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain(`valid (signature+response), key ${t.deps.signingKey.kid}`);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({ valid: false, reason: 'response_mismatch' });
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('valid (signature)');

    const asked = 'GET /api/data/preview?type=crypto-price&q=bitcoin&max_age=60';
    const [same, other] = await Promise.all([
      svc(['verify', saved, '--request', asked]),
      svc(['verify', saved, '--request', asked.replace('bitcoin', 'ethereum')]),
    ]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('valid (signature+response+request)');
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('INVALID: request_mismatch');
  });

  it('svc bundle pays with the wallet from SVC_WALLET_KEY; without a wallet it exits 4', async () => {
    const file = join(dir, 'bundle.json');
    writeFileSync(
      file,
      JSON.stringify([
        { type: 'crypto-price', q: 'bitcoin' },
        { type: 'weather', q: '40.71,-74.01' },
      ]),
    );
    const [paid, unpaid] = await Promise.all([
      svc(['bundle', file, '--json'], { SVC_WALLET_KEY: generatePrivateKey() }),
      svc(['bundle', file]),
    ]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ count: 2, payment: { method: 'x402' } });
    expect(unpaid.code).toBe(4);
    expect(unpaid.stderr).toContain('set SVC_WALLET_KEY');
  });

  it('svc pass buy day, then a paid backtest with the pass; a wallet key in a file works too', async () => {
    const keyFile = join(dir, 'wallet.key');
    writeFileSync(keyFile, `${generatePrivateKey()}\n`, { mode: 0o600 });
    const bought = await svc(['pass', 'buy', 'day', '--json', '--wallet-file', keyFile]);
    expect(bought.code, bought.stderr).toBe(0);
    const { pass } = JSON.parse(bought.stdout);
    expect(pass).toMatch(/^svc-pass_/);
    const to = String(Date.UTC(2026, 10, 22, 12) / 1000);
    const backtest = await svc(['backtest', 'SOL', '--paid', '--from', '2026-10-23T12:00:00Z', '--to', to, '--json'], { SVC_PASS: pass });
    expect(backtest.code, backtest.stderr).toBe(0);
    expect(JSON.parse(backtest.stdout)).toMatchObject({ paid: true, q: 'SOL', interval: '1h' });
    expect(JSON.parse(backtest.stdout).count).toBeGreaterThan(100);
  });

  it('exit codes: 2 for usage, 3 for a service error, 4 for a spend cap, 5 when the service is unreachable', async () => {
    const [usage, http, cap, down] = await Promise.all([
      svc(['backtest']),
      svc(['entity', 'x'.repeat(300)]),
      svc(['pass', 'buy', 'week'], { SVC_WALLET_KEY: generatePrivateKey() }),
      svc(['catalog', '--base-url', 'http://127.0.0.1:9']),
    ]);
    expect(usage.code).toBe(2);
    expect(http.code).toBe(3);
    expect(http.stderr).toMatch(/^svc: 400 validation_failed: .*q/);
    expect(cap.code).toBe(4);
    expect(cap.stderr).toContain('exceeds the per-call cap of $1');
    expect(down.code).toBe(5);
  });

  it('svc session event posts with the session token (flag or SVC_SESSION_TOKEN); svc session end ends it', async () => {
    const started = await svc(['session', 'start', '--label', 'cli events', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const { session_id, session_token } = JSON.parse(started.stdout);
    const [first, second, wrong, missing] = await Promise.all([
      svc(['session', 'event', session_id, 'thought', 'reading', 'the', 'news', '--token', session_token]),
      svc(['session', 'event', session_id, 'log', 'second', '--json'], { SVC_SESSION_TOKEN: session_token }),
      svc(['session', 'event', session_id, 'log', 'intruder', '--token', 'not-the-token']),
      svc(['session', 'event', session_id, 'log', 'no token']),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(first.stdout).toMatch(/^posted event [12]\n$/);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: true, seq: expect.any(Number) });
    expect(wrong.code).toBe(3);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--token');
    const session = await t.app.inject({ url: `/api/agent-session/session?session_id=${session_id}` });
    expect(session.json()).toMatchObject({ status: 'live', events: 2 });

    const ended = await svc(['session', 'end', session_id, '--token', session_token, '--json']);
    expect(ended.code, ended.stderr).toBe(0);
    expect(JSON.parse(ended.stdout)).toMatchObject({ ok: true, status: 'ended' });
  });
});
