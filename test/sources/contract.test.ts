import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureExchanges, loadFixtures, type Fault, type Fixture, type FixtureOrigin } from '../../src/upstream/fixtures.js';
import { registry } from '../../src/sources/registry.js';
import type { Row } from '../../src/sources/define.js';
import { HOSTS, type HostSpec } from '../../src/upstream/hosts.js';
import { DEFAULT_MAX_BYTES } from '../../src/upstream/client.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * One suite over every registered data type: adding a type's fixture is enough to get its replay,
 * fault and bad-q tests.
 */
const fixtures = new Map(loadFixtures().map((f) => [f.type, f]));
const descriptors = registry.all();
/**
 * Every type's deadline, capped. The hang costs it once for the whole catalog (below), so it can leave room for an
 * oversized body of tens of megabytes to stream on a loaded runner: at 800 ms those ran out of time under load.
 */
const DEADLINE_CAP_MS = 3000;
/** Generous for a loaded CI runner: the point is bounded (a hang would run to the 20 s test timeout), not fast. */
const MARGIN_MS = 1200;

/** The hang is not here: it costs a whole deadline, so every type meets it at once (the last describe). */
const FAULTS: [string, Fault, string][] = [
  ['HTTP 500', { kind: 'status', status: 500 }, 'upstream_error'],
  ['HTTP 429 with Retry-After', { kind: 'status', status: 429, headers: { 'retry-after': '30' } }, 'upstream_rate_limited'],
  ['malformed JSON', { kind: 'malformed' }, 'upstream_bad_response'],
  ['an oversized body', { kind: 'oversize', bytes: 0 }, 'upstream_bad_response'],
  ['an empty list', { kind: 'empty' }, 'no_data'],
];

/** Names every plain object inherits: a lookup table keyed by q must not find them (regression: liquidations 500'd). */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'constructor:BTCUSDT', 'ethereum:__proto__'];

/** Each host's body cap, so the oversize fault is over it wherever the host allows large answers. */
const bodyCap = (host: string) => (HOSTS as Record<string, HostSpec>)[host]?.maxBytes ?? DEFAULT_MAX_BYTES;
const hostsOf = (f: Fixture) => [...new Set(fixtureExchanges(f).map((e) => e.host))];
const primaryHosts = (f: Fixture) => [...new Set(f.exchanges.map((e) => e.host))];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ deadlineCapMs: DEADLINE_CAP_MS });
});
afterAll(() => t.close());
/** No fault, closed breakers and no recorded history: every test starts from the fixtures alone. */
const startClean = async () => {
  t.sim.clearFaults();
  t.deps.upstream.resetBreakers();
  await t.deps.store.db.deleteFrom('source_history').execute();
};
beforeEach(startClean);

const run = async (f: Fixture) => {
  const result = await t.deps.sources.run(f.type, f.q, { maxAgeS: 0 });
  return result.ok ? { ...result, rows: result.rows.map(normalized) } : result;
};
/** A row as its normalizer made it, with `source` and `as_of`: the fields the pipeline derives are checked on their own. */
const normalized = ({ as_of_kind, next_update_at, age_s, stale, ...row }: Row) => row;

type Outcome = Awaited<ReturnType<typeof run>>;
const faultAt = (host: string, fault: Fault): Fault =>
  fault.kind === 'oversize' ? { kind: 'oversize', bytes: bodyCap(host) + 1024 } : fault;

/** A faulted run ends within the deadline as the type's fixture says: ok:false with the reason, or its offline rows. */
function expectFailedAs(f: Fixture, fault: Fault, reason: string, result: Outcome, elapsedMs: number) {
  expect(elapsedMs).toBeLessThan(DEADLINE_CAP_MS + MARGIN_MS);
  const override = f.fault_expectations?.[fault.kind];
  if (f.offline_expected) expect(result.ok && result.rows).toEqual(f.offline_expected);
  else if (override === 'ok') expect(result.ok).toBe(true);
  else expect(result).toMatchObject({ ok: false, type: f.type, error: override ?? reason });
}

/**
 * Each type's HTTP checks come from their own client address: 43 types' bad-q 400s from one address
 * would add up to a 4xx storm, which the protection layer rightly answers with a block.
 */
const clientOf = (type: string) => `10.0.0.${registry.types().indexOf(type) + 1}`;

it('every type has a fixture', () => {
  expect(descriptors.map((d) => d.type).filter((type) => !fixtures.has(type))).toEqual([]);
});

it('every fixture states its origin: recorded (date and request) or from-docs (an https documentation URL)', () => {
  const stated = (o: FixtureOrigin | undefined) =>
    o?.kind === 'recorded'
      ? /^\d{4}-\d{2}-\d{2}$/.test(o.date) && o.request.length > 0
      : o?.kind === 'from-docs' && /^https:\/\/\S+$/.test(o.url);
  for (const f of loadFixtures()) {
    expect(stated(f.origin), f.type).toBe(true);
    for (const further of f.further_fallbacks ?? []) expect(stated(further.origin), `${f.type} further fallback`).toBe(true);
  }
});

it('the catalog lists every registered type', async () => {
  const res = await t.app.inject('/api/v1/catalog');
  expect(
    res
      .json()
      .data_types.map((d: { type: string }) => d.type)
      .sort(),
  ).toEqual(registry.types().sort());
});

describe.each(descriptors.map((d) => [d.type, d] as const))('%s', (type) => {
  const fixture = () => fixtures.get(type)!;

  it('replays the recorded exchange into exactly the expected rows', async () => {
    const result = await run(fixture());
    expect(result).toMatchObject({ ok: true, type });
    expect(result.ok && result.rows).toEqual(fixture().expected);
  });

  it('stamps every row with its freshness: as_of in Unix seconds, as_of_kind, age_s and stale', async () => {
    const result = await t.deps.sources.run(type, fixture().q, { maxAgeS: 0 });
    const nowS = Math.floor(t.clock.now() / 1000);
    for (const row of result.ok ? result.rows : []) {
      expect(row).toMatchObject({ as_of_kind: expect.stringMatching(/^(source|fetched)$/), stale: false });
      expect(Number.isInteger(row.as_of) && Number.isInteger(row.age_s)).toBe(true);
      expect(row.age_s).toBe(Math.max(0, nowS - (row.as_of as number)));
      if (row.as_of_kind === 'fetched') expect(row.as_of).toBe(nowS);
      if (row.next_update_at !== undefined) expect(row.next_update_at).toBeGreaterThan(row.as_of as number);
    }
  });

  it('previews the first row through HTTP, signed and with a cursor', async () => {
    const res = await t.app.inject({ url: '/api/data/preview', query: { type, q: fixture().q }, remoteAddress: clientOf(type) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(normalized(body.preview)).toEqual(fixture().expected[0]);
    expect(body._cursor).toMatch(/^svc-cur:/);
    expect(body._receipt.sources).toEqual([fixture().expected[0]!.source]);
  });

  it('answers from the fallback upstream when the primary fails', async () => {
    const f = fixture();
    if (!f.fallback) return expect(Object.keys(registry.get(type)!.upstreams).length).toBeLessThanOrEqual(1);
    for (const host of primaryHosts(f)) t.sim.fault(host, { kind: 'status', status: 503 });
    const result = await run(f);
    expect(result.ok && result.rows).toEqual(f.fallback.expected);
  });

  it('answers from each further fallback when every upstream before it fails', async () => {
    const f = fixture();
    const failed = [...primaryHosts(f), ...(f.fallback?.exchanges ?? []).map((e) => e.host)];
    for (const further of f.further_fallbacks ?? []) {
      for (const host of failed) t.sim.fault(host, { kind: 'status', status: 503 });
      t.deps.upstream.resetBreakers();
      const result = await run(f);
      expect(result.ok && result.rows).toEqual(further.expected);
      failed.push(...further.exchanges.map((e) => e.host));
    }
  });

  it.each(FAULTS)('turns %s into ok:false (%s) within the deadline', async (_name, fault, reason) => {
    const f = fixture();
    for (const host of hostsOf(f)) t.sim.fault(host, faultAt(host, fault));
    const started = Date.now();
    expectFailedAs(f, fault, reason, await run(f), Date.now() - started);
  });

  it('treats object property names in q as plain text: a 200, a 400 or an unknown symbol, never a 500', async () => {
    for (const q of PROTOTYPE_NAMES) {
      const res = await t.app.inject({ url: '/api/data/preview', query: { type, q }, remoteAddress: clientOf(type) });
      expect([200, 400, 404], `q=${q}`).toContain(res.statusCode);
      if (res.statusCode === 404) expect(res.json()).toMatchObject({ error: 'unknown_symbol', details: { field: 'q' } });
    }
  });

  it('refuses each malformed q with a 400 stating the expected shape', async () => {
    for (const q of fixture().bad_q ?? []) {
      const res = await t.app.inject({ url: '/api/data/preview', query: { type, q }, remoteAddress: clientOf(type) });
      expect(res.statusCode, `q=${q}`).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'invalid_q',
        details: { field: 'q', expected: expect.any(String), example: expect.any(String) },
      });
    }
  });
});

/**
 * Every type meets the hang at once, so the catalog waits one deadline instead of one per type. Only the hang: the
 * other faults fail fast, and concurrent retries against one host would queue behind each other.
 */
describe('a hanging upstream at every host', () => {
  const [fault, reason]: [Fault, string] = [{ kind: 'hang' }, 'upstream_timeout'];
  const outcomes = new Map<string, { result: Outcome; elapsedMs: number }>();
  beforeAll(async () => {
    await startClean();
    for (const host of new Set(descriptors.flatMap((d) => hostsOf(fixtures.get(d.type)!)))) t.sim.fault(host, fault);
    const timed = async (f: Fixture) => {
      const started = Date.now();
      const result = await run(f);
      outcomes.set(f.type, { result, elapsedMs: Date.now() - started });
    };
    await Promise.all(descriptors.map((d) => timed(fixtures.get(d.type)!)));
  });

  it.each(descriptors.map((d) => d.type))(`%s turns it into ok:false (${reason}) within the deadline`, (type) => {
    const { result, elapsedMs } = outcomes.get(type)!;
    expectFailedAs(fixtures.get(type)!, fault, reason, result, elapsedMs);
  });
});

it('the catalog says where each type comes from and which types have a live feed', async () => {
  const { data_types } = (await t.app.inject('/api/v1/catalog')).json() as {
    data_types: { type: string; upstreams: string[]; live_stream: boolean }[];
  };
  const byType = new Map(data_types.map((d) => [d.type, d]));
  expect(byType.get('energy-grid-eu')).toMatchObject({ upstreams: ['entsoe', 'energy-charts'] });
  expect(byType.get('token-unlock')).toMatchObject({ upstreams: ['defillama-datasets', 'curated'] });
  // The suites' app polls nothing (SVC_STREAM_WATCH=off); the stream suite covers the default of every type.
  for (const d of data_types) expect(d.live_stream, d.type).toBe(false);
});
