import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { corroborationProblems, ruleInEffect } from '../../src/config-env-corroboration.js';
import { createDeps } from '../../src/deps.js';
import { registry } from '../../src/sources/registry.js';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Every source is waited for (tests sign with all of them): on a loaded machine a 1.5 s cap would list some `late`. */
const SLOW_MACHINE_DEADLINE_MS = 4000;
/**
 * SVC_CORROBORATION_RULES: the operator's rules replace the declared ones, checked at start-up with one sentence per
 * problem, and a changed rule changes the answer over HTTP. The recorded fixtures price bitcoin at 67187.34 (CoinGecko),
 * 67190.1 (Kraken) and 67188.12 (Coinbase) in USD: 0.12 and 0.29 bps from their median.
 */
const SOURCES = ['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit'];

interface Block {
  status: string;
  quorum: number;
  sources: { source: string; used: boolean; reason?: string; error?: string }[];
}

describe('SVC_CORROBORATION_RULES at start-up', () => {
  /** The configuration checks the shape; createDeps checks the types and quorums against the registry: both at start. */
  const problemOf = (value: string) => {
    try {
      const { corroboration } = loadConfig({ SVC_CORROBORATION_RULES: value });
      const problems = corroborationProblems(corroboration, registry.all());
      if (problems.length > 0) throw new ConfigError(problems);
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };
  const cryptoPrice = registry.get('crypto-price')!.corroboration!.rule;

  it('replaces only the fields it sets; unset, every type keeps its declared rule', () => {
    expect(ruleInEffect(cryptoPrice, loadConfig({}).corroboration, 'crypto-price')).toEqual({
      quorum: 2,
      outlierBps: 50,
      staleAfterS: 120,
      quote: 'USD',
    });
    const set = loadConfig({ SVC_CORROBORATION_RULES: '{"crypto-price":{"quorum":3,"stale_after_s":30}}' });
    expect(ruleInEffect(cryptoPrice, set.corroboration, 'crypto-price')).toEqual({
      quorum: 3,
      outlierBps: 50,
      staleAfterS: 30,
      quote: 'USD',
    });
  });

  it('a start with a type that is not corroborated exits 2 naming it (createDeps, where the registry is)', async () => {
    await expect(
      createDeps(
        loadConfig({ SVC_CORROBORATION_RULES: '{"weather":{"quorum":2}}', SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-rules-')) }),
      ),
    ).rejects.toThrow(/SVC_CORROBORATION_RULES: "weather" is not a corroborated type/);
  });

  it('names the variable, the type and the field in one sentence per problem', () => {
    expect(problemOf('quorum=3')).toMatch(/^invalid configuration: SVC_CORROBORATION_RULES: must be a JSON object such as \{/);
    expect(problemOf('[1]')).toBe(
      'invalid configuration: SVC_CORROBORATION_RULES: must be a JSON object by type, such as ' +
        '{"crypto-price":{"quorum":3,"outlier_bps":25,"stale_after_s":60}}',
    );
    expect(problemOf('{"weather":{"quorum":2}}')).toMatch(
      /SVC_CORROBORATION_RULES: "weather" is not a corroborated type \(they are .*crypto-price/,
    );
    expect(problemOf('{"crypto-price":{"quorom":3}}')).toBe(
      'invalid configuration: SVC_CORROBORATION_RULES: crypto-price.quorom is not a rule field (the fields are quorum, outlier_bps, stale_after_s)',
    );
    expect(problemOf('{"crypto-price":{"quorum":7}}')).toBe(
      'invalid configuration: SVC_CORROBORATION_RULES: crypto-price.quorum: must be a whole number from 1 to 6 (crypto-price asks 6 sources) (got 7)',
    );
    expect(problemOf('{"crypto-price":{"outlier_bps":"25"}}')).toMatch(
      /crypto-price\.outlier_bps: must be a number from 0.01 to 10000 \(got "25"\)/,
    );
    expect(problemOf('{"crypto-price":3}')).toMatch(/SVC_CORROBORATION_RULES: crypto-price must be an object of rule fields/);
  });

  it('lists every problem at once', () => {
    const message = problemOf('{"crypto-price":{"quorum":0,"stale_after_s":1.5}}');
    expect(message.split('\n').filter((line) => line.includes('SVC_CORROBORATION_RULES'))).toHaveLength(2);
  });
});

describe('a changed rule changes the answer over HTTP', () => {
  let sim: Simulator;
  const apps: Record<string, TestApp> = {};
  const start = (rules?: string) =>
    startTestApp({ sim, env: rules ? { SVC_CORROBORATION_RULES: rules } : {}, deadlineCapMs: SLOW_MACHINE_DEADLINE_MS });
  beforeAll(async () => {
    sim = await new Simulator(loadFixtures()).start();
    apps.declared = await start();
    apps.quorum3 = await start('{"crypto-price":{"quorum":3}}');
    apps.tight = await start('{"crypto-price":{"outlier_bps":0.2}}');
  });
  afterAll(async () => {
    await Promise.all(Object.values(apps).map((a) => a.close()));
    await sim.close();
  });

  /** bitcoin asked afresh of every source: the answer and each source's cached answer forgotten first. */
  async function bitcoin(t: TestApp): Promise<Block> {
    const key = 'src:crypto-price:bitcoin';
    await Promise.all([key, ...SOURCES.map((s) => `${key}@${s}`)].map((k) => t.deps.cache.delete(k)));
    const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin' } });
    expect(res.statusCode).toBe(200);
    return res.json().preview.corroboration;
  }
  const verdict = (block: Block, source: string) => block.sources.find((s) => s.source === source);

  it('quorum 3: two agreeing USD sources (Kraken failing) are agreed by the declared rule, disputed by the operator’s', async () => {
    sim.fault('kraken', { kind: 'status', status: 500 });
    try {
      const declared = await bitcoin(apps.declared!);
      expect(declared).toMatchObject({ status: 'agreed', quorum: 2 });
      expect(verdict(declared, 'kraken')).toMatchObject({ used: false, reason: 'unavailable', error: 'upstream_error' });
      expect(await bitcoin(apps.quorum3!)).toMatchObject({ status: 'disputed', quorum: 2 });
    } finally {
      sim.clearFaults();
    }
    expect(await bitcoin(apps.quorum3!)).toMatchObject({ status: 'agreed', quorum: 3 });
  });

  it('outlier_bps 0.2: Kraken, 0.29 bps from the median, becomes an outlier', async () => {
    expect(verdict(await bitcoin(apps.declared!), 'kraken')).toMatchObject({ used: true });
    const tight = await bitcoin(apps.tight!);
    expect(verdict(tight, 'kraken')).toMatchObject({ used: false, reason: 'outlier' });
    expect(tight).toMatchObject({ status: 'agreed', quorum: 2 });
  });

  it('a disputed answer recomputed from the same source answers is written to history once, not on every request', async () => {
    const t = apps.quorum3!;
    sim.fault('kraken', { kind: 'status', status: 500 });
    try {
      const record = vi.spyOn(t.deps.repos.sourceHistory, 'record');
      expect(await bitcoin(t)).toMatchObject({ status: 'disputed' });
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin' } });
        expect(res.json()).toMatchObject({ cached: false, preview: { corroboration: { status: 'disputed' } } });
      }
      expect(record.mock.calls.map(([entry]) => entry.type)).toEqual(['crypto-price']);
      record.mockRestore();
    } finally {
      sim.clearFaults();
    }
  });
});
