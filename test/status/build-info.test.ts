import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { migrations } from '../../src/store/migrations/index.js';
import { entryArgs } from '../helpers/entry.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
const all = Object.keys(migrations);

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await startTestApp({ logStream: { write: (line) => lines.push(line) } });
});
afterAll(() => t.close());

describe('the build an operator can read', () => {
  it('is named in /healthz and /api/v1/status: version, commit and the migrations applied', async () => {
    const expected = { version, commit: head, migrations: all };
    expect((await t.app.inject('/healthz')).json()).toMatchObject({ ok: true, ...expected });
    expect((await t.app.inject('/api/v1/status')).json()).toMatchObject(expected);
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    // The list ends with the newest migration file.
    const files = readdirSync('src/store/migrations').filter((f) => /^\d{3}_.*\.ts$/.test(f));
    expect(all.at(-1)).toBe(files.sort().at(-1)!.replace(/\.ts$/, ''));
  });

  it('is a svc_build_info gauge', async () => {
    const metrics = (await t.app.inject('/metrics')).body;
    expect(metrics).toContain(`svc_build_info{version="${version}",commit="${head}"} 1`);
  });

  it('logs one line per migration a start applies', () => {
    const applied = lines.map((line) => JSON.parse(line) as { msg: string; migration?: string }).filter((l) => l.migration);
    expect(applied.map((l) => l.msg)).toEqual(all.map((name) => `migration ${name} applied`));
  });

  it('is what svc-server --version prints', () => {
    const out = execFileSync(process.execPath, [...entryArgs('src/main.ts'), '--version'], { encoding: 'utf8' });
    expect(out).toBe(`svc-server ${version} (commit ${head})\n`);
  }, 60_000);
});
