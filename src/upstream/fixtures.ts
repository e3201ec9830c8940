import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The fixture files: recorded or documented upstream exchanges per data type, with the rows they should become. The
 * contract suite replays them, the demo's simulator serves them and the OpenAPI document takes its row examples from
 * them, so they are read here, below all three.
 */
export interface Exchange {
  host: string;
  method?: string;
  path: string;
  /** Parameters that must match (a subset); key parameters are never listed. */
  query?: Record<string, string>;
  /** Text the request body must contain (POSTs to one path, e.g. JSON-RPC methods). */
  body_contains?: string;
  status?: number;
  headers?: Record<string, string>;
  /** JSON value, or a string served as-is (CSV, XML, HTML). */
  body: unknown;
  /** Serve a string body in this single-byte charset instead of UTF-8 (feeds that declare Latin-1). */
  charset?: 'latin1';
  /** What "an empty list" looks like for this upstream; default: every array emptied. */
  empty_body?: unknown;
}

/**
 * Where a fixture's upstream shape comes from: a real response (`recorded`, with when and what was asked) or a
 * response written from documentation (`from-docs`, with the page it follows; `note` says when that is not official).
 */
export type FixtureOrigin = { kind: 'recorded'; date: string; request: string } | { kind: 'from-docs'; url: string; note?: string };

export interface Fixture {
  type: string;
  q: string;
  origin: FixtureOrigin;
  /** The upstream requests and response shapes the fixture follows, in words. */
  provenance?: string;
  exchanges: Exchange[];
  expected: Record<string, unknown>[];
  /** The rows when the primary upstream fails and the fallback answers from its own exchanges. */
  fallback?: { exchanges: Exchange[]; expected: Record<string, unknown>[] };
  /** Types with more than two upstreams: each further one, in order, with the rows it answers when all before it fail. */
  further_fallbacks?: { origin: FixtureOrigin; exchanges: Exchange[]; expected: Record<string, unknown>[] }[];
  bad_q?: string[];
  /** Types with a curated data file: the rows served when every HTTP upstream fails. */
  offline_expected?: Record<string, unknown>[];
  /** Faults this upstream's format answers differently, with the reason (or 'ok'), e.g. HTML has no "malformed". */
  fault_expectations?: Partial<Record<Fault['kind'], string>>;
}

export type Fault =
  | { kind: 'delay'; ms: number }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'hang' }
  | { kind: 'malformed' }
  | { kind: 'truncated' }
  | { kind: 'oversize'; bytes: number }
  | { kind: 'empty' };

/** Shipped with the service (the demo serves them) and read by the tests from the same place. */
export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../sources/fixtures');

export function loadFixtures(dir = FIXTURE_DIR): Fixture[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture);
}

/** Every exchange a fixture records: the primary's, the fallback's and the further fallbacks'. */
export const fixtureExchanges = (f: Fixture): Exchange[] => [
  ...f.exchanges,
  ...(f.fallback?.exchanges ?? []),
  ...(f.further_fallbacks ?? []).flatMap((further) => further.exchanges),
];
