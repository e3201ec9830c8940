import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

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

  it.each(['src/main.ts', 'src/mcp/stdio.ts'])('%s exits 2 naming the bad variable on stderr, before starting anything', (entry) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
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
