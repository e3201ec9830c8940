import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { unknownVariableWarnings } from '../../src/config-unknown.js';
import { entryArgs } from '../helpers/entry.js';

describe('config', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, dataDir: './data', publicUrl: 'http://localhost:8080', issuer: 'localhost', demo: false });
    expect(config.upstreams.coingecko.baseUrl).toBe('https://api.coingecko.com');
    expect(config.upstreams.fred.key).toBeUndefined();
  });

  it('reads upstream overrides and keys from UPSTREAM_<HOST>_URL / _KEY', () => {
    const config = loadConfig({ UPSTREAM_OPEN_METEO_URL: 'http://127.0.0.1:9/x/', UPSTREAM_FRED_KEY: 'k' });
    expect(config.upstreams['open-meteo'].baseUrl).toBe('http://127.0.0.1:9/x');
    expect(config.upstreams.fred.key).toBe('k');
  });

  it('warns about each SVC_* or UPSTREAM_* variable it does not read, naming the closest one it does', () => {
    const env = {
      SVC_SCHEDULER: '0',
      UPSTREAM_FRED_KEY: 'k',
      SVC_WORKER_REPLACEMENT: '1',
      UPSTREAM_OPEN_METO_URL: 'http://127.0.0.1:9',
      SVC_RATE_ANON_PER_MINUTE: '10',
      HOME: '/root',
    };
    expect(unknownVariableWarnings(env)).toEqual([
      'SVC_RATE_ANON_PER_MINUTE is not a variable svc reads, so it is ignored; did you mean SVC_RATE_ANON_PER_MIN?',
      'UPSTREAM_OPEN_METO_URL is not a variable svc reads, so it is ignored; did you mean UPSTREAM_OPEN_METEO_URL?',
    ]);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://x', SVC_PUBLIC_URL: 'ftp://x', UPSTREAM_COINGECKO_URL: 'not a url' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'SVC_PUBLIC_URL', 'UPSTREAM_COINGECKO_URL']) expect(text).toContain(name);
  });

  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('says what each bad variable takes in words, once: no regular expression, no repeated alternatives', () => {
    const problems = problemsOf({
      SVC_PUBLIC_URL: 'svc.example.org',
      SVC_WORKERS: 'many',
      LOG_LEVEL: 'loud',
      PORT: 'abc',
      SVC_STREAM_MAX_PER_IP: '0',
      SVC_DEMO: 'maybe',
      SVC_REDIS_PREFIX: 'a b',
    });
    expect(problems).toEqual([
      'PORT: must be an integer from 0 to 65535 (got "abc")',
      'SVC_PUBLIC_URL: must be an http(s) URL of scheme and host only, such as https://svc.example.org (got "svc.example.org")',
      'SVC_REDIS_PREFIX: must be 1 to 64 letters, digits, or the characters _ . : - (got "a b")',
      'SVC_WORKERS: must be auto or a number of processes from 1 to 99 (got "many")',
      'SVC_DEMO: must be 1, true, yes or on for yes; 0, false, no or off for no (any case) (got "maybe")',
      'SVC_STREAM_MAX_PER_IP: must be an integer from 1 to 100 (got "0")',
      'LOG_LEVEL: must be one of `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent` (got "loud")',
    ]);
    for (const problem of problems) expect(problem).not.toMatch(/[\^$]|\[0-9|pattern|schema|constant/);
  });

  it('takes a trailing slash in SVC_PUBLIC_URL as the same URL', () => {
    const config = loadConfig({ SVC_PUBLIC_URL: 'https://svc.example.org/' });
    expect(config.publicUrl).toBe('https://svc.example.org');
  });

  it('reads every yes/no variable by one rule, and refuses other spellings', () => {
    for (const yes of ['1', 'true', 'TRUE', 'Yes', 'on'])
      expect(loadConfig({ SVC_DEMO: yes, SVC_MCP_READONLY: yes, SVC_SCHEDULER: yes })).toMatchObject({
        demo: true,
        scheduler: true,
        mcpClient: { readonly: true },
      });
    for (const no of ['0', 'false', 'No', 'OFF'])
      expect(loadConfig({ SVC_DEMO: no, SVC_MCP_READONLY: no, SVC_SCHEDULER: no })).toMatchObject({
        demo: false,
        scheduler: false,
        mcpClient: { readonly: false },
      });
    expect(loadConfig({})).toMatchObject({ demo: false, scheduler: true, mcpClient: { readonly: false } });
    expect(problemsOf({ SVC_MCP_READONLY: 'enabled' })).toEqual([
      'SVC_MCP_READONLY: must be 1, true, yes or on for yes; 0, false, no or off for no (any case) (got "enabled")',
    ]);
  });

  it('one bad variable is one line', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/^invalid configuration: PORT: must be an integer from 0 to 65535 \(got "abc"\)$/);
  });

  it.each(['src/main.ts', 'src/mcp/stdio.ts'])('%s exits 2 naming the bad variable on stderr, before starting anything', (entry) => {
    const run = spawnSync(process.execPath, entryArgs(entry), {
      env: { ...process.env, SVC_TRUST_PROXY: 'true', DATABASE_URL: '', REDIS_URL: '' },
      encoding: 'utf8',
      input: '',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('SVC_TRUST_PROXY');
    expect(run.stdout).toBe('');
  });
});
