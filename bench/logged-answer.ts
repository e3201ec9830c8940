/**
 * What the transparency log adds to an answer (issue 39, budget ≤ 2 ms at p99): the same signed route in two Fastify
 * apps of this process, one with the receipt signing plugin's log (each distinct body's first signing appends an
 * entry and answers once it is committed) and one without, each answer a new body (its own URL), 10 connections from
 * autocannon in its own process, three alternating rounds; the round with the median p99 difference is reported, with
 * every round's. The log integrates every second meanwhile, as in the service. On SQLite, and on Postgres with DATABASE_URL.
 * Also per engine: the logged answers' appends per second (entries committed over the logged runs' time) and this
 * process's CPU per answer with and without the log (the database server's own CPU is not counted).
 */
import { generateKeyPairSync } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock } from '../src/core/clock.js';
import { describeKey } from '../src/core/signing-keys.js';
import { registerSigning } from '../src/plugins/signing.js';
import type { TlogRepo } from '../src/store/repos/tlog.js';
import type { TransparencyLog } from '../src/tlog/log.js';
import { openLog } from './transparency-log.js';
import { measured, round, runExternal, summary } from './lib.js';

const CONNECTIONS = 10;
const ANSWERS_PER_RUN = 6_000;
const ROUNDS = 3;
const BUDGET_MS = 2;
const key = describeKey(generateKeyPairSync('ed25519').privateKey);

/** A signed route answering a body that differs per URL, so every answer is a first signing (logged, with a log). */
async function signedApp(log: TransparencyLog | undefined): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify();
  registerSigning(app, { key, issuer: 'bench.example', clock: systemClock, log });
  app.get('/answer/:n', { config: { signed: true } }, async (request) => ({
    ok: true,
    as_of: Math.floor(Date.now() / 1000),
    n: (request.params as { n: string }).n,
  }));
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

let run = 0;
/** One run of ANSWERS_PER_RUN answers, every path new to the server (the run number keeps rounds apart). */
async function loadOf(base: string) {
  run++;
  const requests = Array.from({ length: ANSWERS_PER_RUN }, (_, i) => ({ path: `/answer/${run}-${i}` }));
  const { result, cpuS } = await measured(() => runExternal(`${base}/answer/0`, CONNECTIONS, 0, { requests, amount: ANSWERS_PER_RUN }));
  return Object.assign(result, { cpuUsPerAnswer: (cpuS * 1e6) / ANSWERS_PER_RUN });
}

/** A logged run, with the entries it appended per second of its duration. */
async function loggedLoadOf(base: string, repo: TlogRepo) {
  const before = await repo.size();
  const result = await loadOf(base);
  return Object.assign(result, { appendsPerS: ((await repo.size()) - before) / result.duration });
}

async function onEngine(databaseUrl: string | undefined) {
  const { store, repo, log } = await openLog(databaseUrl, 'logged_answer');
  log.start(); // integrating every second, as in the service: its steps share SQLite's one connection with the appends
  const logged = await signedApp(log);
  const unlogged = await signedApp(undefined);
  try {
    await loadOf(logged.base); // warm-up: JIT and the log's first transactions
    await loadOf(unlogged.base);
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const withLog = await loggedLoadOf(logged.base, repo);
      const without = await loadOf(unlogged.base);
      rounds.push({ withLog, without, addedP99: withLog.latency.p99 - without.latency.p99 });
    }
    const median = [...rounds].sort((a, b) => a.addedP99 - b.addedP99)[Math.floor(ROUNDS / 2)]!;
    return {
      logged: summary(median.withLog),
      unlogged: summary(median.without),
      added_p99_ms: round(median.addedP99, 2),
      added_p99_ms_of_each_round: rounds.map((r) => round(r.addedP99, 2)),
      added_p50_ms: round(median.withLog.latency.p50 - median.without.latency.p50, 2),
      budget_added_p99_ms: BUDGET_MS,
      appends_per_s_of_each_round: rounds.map((r) => Math.round(r.withLog.appendsPerS)),
      cpu_us_per_answer: { logged: round(median.withLog.cpuUsPerAnswer, 1), unlogged: round(median.without.cpuUsPerAnswer, 1) },
    };
  } finally {
    await logged.app.close();
    await unlogged.app.close();
    await log.stop();
    await store.close();
  }
}

export async function loggedAnswer() {
  return {
    connections: CONNECTIONS,
    answers_per_run: ANSWERS_PER_RUN,
    sqlite: await onEngine(undefined),
    ...(process.env.DATABASE_URL ? { postgres: await onEngine(process.env.DATABASE_URL) } : {}),
  };
}
