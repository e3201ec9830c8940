import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGo, run, serveDirectory, skipWithoutGo, type Run } from '../tlog/go.js';
import { entryArgs } from '../helpers/entry.js';

/**
 * `svc log watch` as a user runs it, a child process, on a log written by Go's x/mod/sumdb/tlog: it
 * accepts a consistent history (from a saved --state too) and exits 1 on a fork signed by the log's
 * own key, a bad signature, or a key it was not given.
 */
const CLI = entryArgs('packages/client/src/cli.ts');

interface Vectors {
  vkey: string;
  checkpoints: Record<string, string>;
  fork: string;
}

let dir: string;
let served: { url: string; close: () => Promise<void> };
let vectors: Vectors;

function svc(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      { env: { ...process.env, SVC_BASE_URL: served.url }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const state = (name: string, note: string) => {
  const path = join(dir, name);
  writeFileSync(path, note);
  return path;
};

describe.skipIf(skipWithoutGo)('svc log watch on a Go-built log', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tlog-cli-'));
    expect((await run(await buildGo('fixture'), [join(dir, 'log'), '7,257,1000'])).code).toBe(0);
    vectors = JSON.parse(readFileSync(join(dir, 'log', 'vectors.json'), 'utf8')) as Vectors;
    served = await serveDirectory(join(dir, 'log'));
  });
  afterAll(async () => {
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('accepts a checkpoint consistent with the saved one and updates --state; --json prints one line per poll', async () => {
    const saved = state('consistent', vectors.checkpoints['7']!);
    const watched = await svc(['log', 'watch', '--log-key', vectors.vkey, '--state', saved, '--count', '2', '--interval', '0']);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/^consistent 7 → 1000: fixture\.example\/log size 1000 root \S+ \(signed by fixture\.example\/log\)\n$/);
    expect(readFileSync(saved, 'utf8')).toBe(vectors.checkpoints['1000']);
    const json = await svc(['--json', 'log', 'watch', '--log-key', vectors.vkey, '--state', saved, '--count', '1']);
    expect(JSON.parse(json.stdout)).toMatchObject({ origin: 'fixture.example/log', size: 1000, step: 'same' });
  });

  it('exits 1 on a fork: a checkpoint signed by the log key over other entries', async () => {
    const forked = await svc(['log', 'watch', '--log-key', vectors.vkey, '--state', state('fork', vectors.fork), '--count', '1']);
    expect(forked.code).toBe(1);
    expect(forked.stderr).toMatch(/FORK: size 257 → 1000: the consistency proof fails/);
  });

  it('exits 1 on a saved checkpoint whose signature fails, and on a log key that did not sign the checkpoint', async () => {
    const tampered = vectors.checkpoints['257']!.replace('\n257\n', '\n256\n');
    const bad = await svc(['log', 'watch', '--log-key', vectors.vkey, '--state', state('tampered', tampered), '--count', '1']);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/does not verify/)]);
    const otherKey = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
    const unknown = await svc(['log', 'watch', '--log-key', otherKey, '--count', '1']);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/bad checkpoint: note: no signature from a known key/)]);
  });
});
