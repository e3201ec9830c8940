import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { prettyLine, prettyLogStream } from '../../src/plugins/pretty-log.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { entryArgs } from '../helpers/entry.js';

const PRETTY_HEAD = /^\d\d:\d\d:\d\d\.\d{3} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /;

describe('LOG_FORMAT', () => {
  it('is json by default, pretty on request, and anything else stops start-up naming the variable', () => {
    expect(loadConfig({}).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
    try {
      loadConfig({ LOG_FORMAT: 'yaml' });
    } catch (e) {
      expect((e as ConfigError).problems.join('\n')).toContain('LOG_FORMAT');
    }
  });
});

describe('pretty log lines', () => {
  let t: TestApp;
  let written = '';
  beforeAll(async () => {
    t = await startTestApp({ logStream: prettyLogStream({ write: (text: string) => (written += text) }) });
  });
  afterAll(() => t.close());

  it('write every request as one readable line, with the request id and status, and no JSON', async () => {
    const res = await t.app.inject({
      url: '/api/nothing-here?token=s3cret',
      headers: { 'x-request-id': 'req-pretty-1', authorization: 'Bearer s3cret' },
    });
    expect(res.statusCode).toBe(404);
    const lines = written.trimEnd().split('\n');
    expect(lines.every((l) => PRETTY_HEAD.test(l))).toBe(true);
    const completed = lines.find((l) => l.includes('request completed') && l.includes('reqId=req-pretty-1'));
    expect(completed).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}request completed {2}.*res\.statusCode=404/);
    expect(completed).toContain('req.url=/api/nothing-here?token=[redacted]');
    expect(written).not.toContain('s3cret');
  });

  it('put an error’s stack under its line, and pass a line that is not JSON through', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.UTC(2027, 0, 2, 3, 4, 5, 6),
      msg: 'boom',
      err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f (a.ts:1:1)' },
    });
    expect(prettyLine(line)).toBe('03:04:05.006 ERROR boom  err.type=Error\n    Error: x\n        at f (a.ts:1:1)\n');
    expect(prettyLine(JSON.stringify({ level: 30, time: 0, msg: 'm', n: 1, s: 'two words', o: { a: [1] } }))).toBe(
      '00:00:00.000 INFO  m  n=1 s="two words" o.a=[1]\n',
    );
    expect(prettyLine('not json')).toBe('not json\n');
  });
});

describe('the service with LOG_FORMAT=pretty', () => {
  it('logs its start in pretty lines, warning once about a variable it does not read', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-log-'));
    const child = spawn(process.execPath, [...entryArgs('src/main.ts')], {
      env: {
        ...process.env,
        LOG_FORMAT: 'pretty',
        PORT: '0',
        HOST: '127.0.0.1',
        SVC_DATA_DIR: dataDir,
        SVC_SCHEDULER: '0',
        SVC_SHEDULER: '0',
        DATABASE_URL: '',
        REDIS_URL: '',
      },
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Server listening')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
    } finally {
      child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
    const listening = out.split('\n').find((l) => l.includes('Server listening'));
    expect(listening).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}Server listening at http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).not.toMatch(/^\{/m);
    const typo = out.split('\n').filter((l) => l.includes('SVC_SHEDULER'));
    expect(typo).toEqual([expect.stringMatching(/WARN {2}SVC_SHEDULER is not a variable svc reads, .*did you mean SVC_SCHEDULER\?$/)]);
  }, 90_000);
});
