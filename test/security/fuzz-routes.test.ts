import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { STORE_BACKENDS, uniqueName, type StoreBackend } from '../helpers/backends.js';
import { CONTENT_TYPES, requestFor, samplePath, type Operation, type Parameter, type Schema } from './fuzz-inputs.js';

/**
 * Audit findings 8 and 9: a fuzzer over every operation in /openapi.json, on SQLite and on Postgres.
 * Generated requests (fuzz-inputs.ts), then the audit's fixed inputs: a bodiless request to every
 * route with a body, HEAD on every GET route, every content type on every POST route (multipart
 * without a boundary included). Every answer is < 500 (except the documented 503 model_unavailable:
 * this app has no models), arrives (no hangs), carries the house error body when it is a 4xx, and a
 * rejected request writes no row anywhere.
 */
const HTML_PAGES = /^\/(watch|olympics)\//;
/** An answer that does not arrive within this long is a hang. */
const HANG_MS = 10_000;
const RUNS: Record<StoreBackend, number> = { sqlite: 10_000, postgres: 2_500 };

/**
 * Left out of the generated requests, but HEAD on them must answer at once like on every route: a
 * GET that opens a server-sent-event stream never finishes an inject (it is meant to stay open), and
 * /mcp answers JSON-RPC error bodies (`error` an object, as the MCP specification has it), not the house ones.
 */
const isHeadOnly = (path: string, op: Record<string, unknown>) =>
  path.endsWith('/stream') ||
  path.endsWith('/ticker') ||
  path === '/mcp' ||
  JSON.stringify(op.responses ?? {}).includes('text/event-stream');

/** Counts every row written: SQLite's total_changes(), or on Postgres a row trigger on every table of the test's schema. */
async function changeCounter(t: TestApp, backend: StoreBackend, schema: string): Promise<() => Promise<number>> {
  const db = t.deps.store.db;
  if (backend === 'sqlite') return async () => Number((await sql<{ n: number }>`select total_changes() as n`.execute(db)).rows[0]!.n);
  await sql.raw(`create table ${schema}.fuzz_changes (n bigint not null); insert into ${schema}.fuzz_changes values (0)`).execute(db);
  await sql
    .raw(
      `create function ${schema}.fuzz_count() returns trigger language plpgsql as $$ ` +
        `begin update ${schema}.fuzz_changes set n = n + 1; return null; end $$`,
    )
    .execute(db);
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = ${schema} and table_type = 'BASE TABLE' and table_name <> 'fuzz_changes'`.execute(db);
  for (const { name } of tables.rows)
    await sql
      .raw(
        `create trigger fuzz_count after insert or update or delete on ${schema}."${name}" for each row execute function ${schema}.fuzz_count()`,
      )
      .execute(db);
  return async () => Number((await sql<{ n: string }>`select n from ${sql.raw(schema)}.fuzz_changes`.execute(db)).rows[0]!.n);
}

describe.each(STORE_BACKENDS)('fuzzing every route in /openapi.json (%s)', (backend) => {
  let t: TestApp;
  let headOnly: { method: string; path: string }[];
  let operations: Operation[];
  let rowCount: () => Promise<number>;
  const stats = { requests: 0, byStatus: new Map<number, number>() };

  beforeAll(async () => {
    const pgSchema = uniqueName('fuzz');
    t = await startTestApp({ postgres: backend === 'postgres', pgSchema, env: { SVC_ADMIN_TOKEN: 'fuzz-admin-token-0123456789' } });
    // The instance's heartbeat and the log's checkpoint integration write on their own timers, not in answer to a
    // request: stopped, so every write counted is a request's.
    await t.deps.cluster.stop();
    await t.deps.tlog.stop();
    rowCount = await changeCounter(t, backend, pgSchema);
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    headOnly = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method, op]) => method === 'get' && isHeadOnly(path, op))
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !isHeadOnly(path, op))
        .map(([method, op]) => {
          const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
          return {
            method: method.toUpperCase(),
            path,
            parameters: (op.parameters as Parameter[] | undefined) ?? [],
            body: content?.['application/json']?.schema ?? (content ? {} : undefined),
          };
        }),
    );
  }, 60_000);
  afterAll(async () => {
    const byStatus = Object.fromEntries([...stats.byStatus].sort((a, b) => a[0] - b[0]));
    console.log(JSON.stringify({ backend, fuzz_requests: stats.requests, by_status: byStatus }));
    await t.close();
  });

  /** The error code of an answer; a HEAD answer has no body, so the same GET tells. */
  const errorOf = async (request: InjectOptions, answer: LightMyRequestResponse): Promise<unknown> =>
    (request.method === 'HEAD' ? await t.app.inject({ ...request, method: 'GET' }) : answer).json().error;

  /** Sends one request and holds the answer to every rule of the suite. */
  async function check(request: InjectOptions, describe: string): Promise<LightMyRequestResponse> {
    const before = await rowCount();
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), HANG_MS)));
    const res = await Promise.race([t.app.inject(request), hang]);
    clearTimeout(timer);
    expect(res, `${describe} did not answer within ${HANG_MS} ms`).not.toBe('hang');
    const answer = res as LightMyRequestResponse;
    stats.requests++;
    stats.byStatus.set(answer.statusCode, (stats.byStatus.get(answer.statusCode) ?? 0) + 1);
    const context = `${describe} → ${answer.statusCode} ${answer.body.slice(0, 300)}`;
    const noModels = answer.statusCode === 503 && (await errorOf(request, answer)) === 'model_unavailable';
    if (!noModels) expect(answer.statusCode, context).toBeLessThan(500);
    if (answer.statusCode >= 400) {
      // Rejections record nothing; the only write a 4xx may cause is the abuse counter, which lives in the cache.
      expect(await rowCount(), context).toBe(before);
      // Pages for people answer their 404 as a page in their own style; HEAD answers carry no body.
      if (request.method === 'HEAD') return answer;
      if (
        HTML_PAGES.test(typeof request.url === 'string' ? request.url : '') &&
        String(answer.headers['content-type']).startsWith('text/html')
      )
        return answer;
      const body = answer.json();
      expect(typeof body.error, context).toBe('string');
      expect(typeof body.message, context).toBe('string');
      expect(typeof body.request_id, context).toBe('string');
    }
    return answer;
  }

  it('answers generated requests without a 5xx, with house error bodies, writing nothing when rejecting', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const anyRequest = fc.constantFrom(...operations).chain(requestFor);
    await fc.assert(
      fc.asyncProperty(anyRequest, async (req) => {
        await check(
          {
            method: req.method as 'GET',
            url: req.url,
            remoteAddress: req.ip,
            ...(req.body === undefined ? {} : { payload: req.body, headers: { 'content-type': 'application/json' } }),
          },
          `${req.method} ${req.url.slice(0, 300)} ${String(req.body).slice(0, 300)}`,
        );
      }),
      // A fixed default seed keeps CI reproducible; FUZZ_SEED=<n> explores other inputs.
      { numRuns: RUNS[backend], endOnFailure: true, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
    expect(stats.requests).toBeGreaterThanOrEqual(RUNS[backend]!);
  }, 300_000);

  it('a bodiless request to every route that takes a body is a 4xx (or its answer), never a 5xx', async () => {
    const withBody = operations.filter((op) => op.body !== undefined);
    expect(withBody.length).toBeGreaterThan(20);
    for (const op of withBody)
      await check({ method: op.method as 'POST', url: samplePath(op.path) }, `${op.method} ${op.path} without a body`);
  }, 120_000);

  it('HEAD on every GET route, the streams included, answers at once', async () => {
    const gets = [...operations.filter((op) => op.method === 'GET'), ...headOnly];
    expect(headOnly.map((op) => op.path)).toEqual(
      expect.arrayContaining(['/api/data/stream', '/api/agent-session/stream', '/api/v1/olympics/ticker', '/mcp']),
    );
    expect(gets.length).toBeGreaterThan(30);
    for (const op of gets) {
      const res = await check({ method: 'HEAD', url: samplePath(op.path) }, `HEAD ${op.path}`);
      expect(res.body, `HEAD ${op.path}`).toBe('');
    }
  }, 120_000);

  it('every content type on every POST route (multipart without a boundary included) is refused or served, never a 5xx', async () => {
    const posts = operations.filter((op) => op.method === 'POST');
    for (const op of posts)
      for (const { type, body } of CONTENT_TYPES)
        await check(
          { method: 'POST', url: samplePath(op.path), payload: body, headers: { 'content-type': type } },
          `POST ${op.path} as ${type}`,
        );
  }, 180_000);
});
