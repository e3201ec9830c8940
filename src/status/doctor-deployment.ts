import { accessSync, constants, existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config.js';
import { probePostgres, probeRedis, redacted } from '../lifecycle/startup-errors.js';
import { clusterKeyCheck } from './doctor-cluster.js';

/**
 * The doctor's deployment checks: what the instance needs around it, each a small function of the
 * configuration that says ok, warn (works, but worth a look) or fail (the doctor exits 1), and what to do.
 * A check that does not apply (Redis without REDIS_URL) still says so, so the report lists every check.
 */

export type Level = 'ok' | 'warn' | 'fail';

export interface Finding {
  check: string;
  level: Level;
  detail: string;
  /** What to do, when the level is not ok. */
  fix?: string;
}

type Outcome = Omit<Finding, 'check'>;

export interface DeploymentCheck {
  name: string;
  run: (config: Config) => Promise<Outcome> | Outcome;
}

/** No check waits longer than this, whatever the network does. */
export const CHECK_DEADLINE_MS = 5_000;
const MIB = 1024 * 1024;
/** Below this the data directory fails the check (SQLite and the key file need room to write); below WARN it warns. */
const FREE_FAIL_BYTES = 256 * MIB;
const FREE_WARN_BYTES = 2048 * MIB;

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

async function reachable(url: string, probe: (url: string) => Promise<void>, fix: string): Promise<Outcome> {
  const started = performance.now();
  try {
    await probe(url);
    return { level: 'ok', detail: `${redacted(url)} answered in ${Math.round(performance.now() - started)} ms` };
  } catch (error) {
    return { level: 'fail', detail: `cannot connect to ${redacted(url)} (${reason(error)})`, fix };
  }
}

export const database: DeploymentCheck = {
  name: 'database',
  run: (config) =>
    config.databaseUrl
      ? reachable(config.databaseUrl, probePostgres, 'start PostgreSQL or correct DATABASE_URL')
      : { level: 'ok', detail: `SQLite in ${resolve(config.dataDir)} (one instance; several share DATABASE_URL)` },
};

export const redis: DeploymentCheck = {
  name: 'redis',
  run: (config) => {
    if (config.redisUrl) return reachable(config.redisUrl, probeRedis, 'start Redis or correct REDIS_URL');
    if (!config.databaseUrl) return { level: 'ok', detail: 'not configured (one instance)' };
    return {
      level: 'warn',
      detail: 'REDIS_URL is not set but DATABASE_URL is: fine for one instance only',
      fix: 'several instances on one database need REDIS_URL (limits, slots and session events are shared through it)',
    };
  },
};

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || host.startsWith('127.');

/** SVC_PUBLIC_URL and SVC_TRUST_PROXY tell one story: svc speaks plain HTTP, so an https public URL means a proxy. */
export const publicUrl: DeploymentCheck = { name: 'public URL', run: publicUrlOutcome };

function publicUrlOutcome(config: Config): Outcome {
  const url = new URL(config.publicUrl);
  const proxied = config.trustProxy !== false;
  if (url.protocol === 'https:' && !proxied)
    return {
      level: 'fail',
      detail: `${config.publicUrl} is https, so a TLS proxy is in front, but SVC_TRUST_PROXY is not set: every client looks like the proxy's address`,
      fix: 'set SVC_TRUST_PROXY=1 (one proxy) or to the proxy addresses',
    };
  if (proxied && isLoopback(url.hostname))
    return {
      level: 'fail',
      detail: `SVC_TRUST_PROXY is set (a proxy in front) but SVC_PUBLIC_URL is ${config.publicUrl}: links and receipts name this machine`,
      fix: 'set SVC_PUBLIC_URL to the public origin, e.g. https://svc.example.org',
    };
  if (typeof config.trustProxy === 'number' && config.trustProxy > 1)
    return {
      level: 'warn',
      detail: `SVC_TRUST_PROXY=${config.trustProxy} trusts ${config.trustProxy} hops of X-Forwarded-For`,
      fix: 'trust no more hops than there are proxies, or list their addresses: a client can write the rest',
    };
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return { level: 'warn', detail: `${config.publicUrl} is plain http`, fix: 'put a TLS proxy in front and use https' };
  const behind = proxied ? ` behind SVC_TRUST_PROXY=${String(config.trustProxy)}` : '';
  return { level: 'ok', detail: `${config.publicUrl}${behind}` };
}

export const dataDirSpace: DeploymentCheck = { name: 'data directory', run: freeSpace };

/** The directory, or its nearest existing parent when svc is still to create it (it does at start). */
function existingDir(dir: string): string {
  for (let at = dir; ; at = dirname(at)) if (existsSync(at) || at === dirname(at)) return at;
}

async function freeSpace(config: Config): Promise<Outcome> {
  const dir = resolve(config.dataDir);
  if (config.databaseUrl && config.signingKey) return { level: 'ok', detail: `${dir}: not used (PostgreSQL and SVC_SIGNING_KEY)` };
  const measured = existingDir(dir);
  try {
    accessSync(measured, constants.W_OK);
    const fs = await statfs(measured);
    const free = fs.bavail * fs.bsize;
    const percent = Math.round((100 * fs.bavail) / Math.max(1, fs.blocks));
    const where = measured === dir ? dir : `${dir} (to be created in ${measured})`;
    const detail = `${where}: ${Math.round(free / MIB)} MiB free (${percent} %)`;
    if (free < FREE_FAIL_BYTES) return { level: 'fail', detail, fix: 'free space or move SVC_DATA_DIR: writes fail on a full disk' };
    if (free < FREE_WARN_BYTES) return { level: 'warn', detail, fix: 'free space or move SVC_DATA_DIR before it fills' };
    return { level: 'ok', detail };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? reason(error);
    return { level: 'fail', detail: `${measured}: ${code}`, fix: 'make SVC_DATA_DIR writable by the user svc runs as' };
  }
}

/** In the order they are printed; more slot in here. */
export const DEPLOYMENT_CHECKS: DeploymentCheck[] = [database, redis, clusterKeyCheck(), publicUrl, dataDirSpace];

async function withDeadline(check: DeploymentCheck, config: Config): Promise<Finding> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome>((done) => {
    const outcome: Outcome = { level: 'fail', detail: `no answer within ${CHECK_DEADLINE_MS} ms`, fix: 'check the network path to it' };
    timer = setTimeout(() => done(outcome), CHECK_DEADLINE_MS);
  });
  try {
    return { check: check.name, ...(await Promise.race([Promise.resolve(check.run(config)), late])) };
  } finally {
    clearTimeout(timer);
  }
}

export function runDeploymentChecks(config: Config, checks: DeploymentCheck[] = DEPLOYMENT_CHECKS): Promise<Finding[]> {
  return Promise.all(checks.map((check) => withDeadline(check, config)));
}

/** One line per check: level, name, what was found and, when not ok, what to do. */
export function formatDeployment(findings: Finding[]): string {
  const width = Math.max(...findings.map((f) => f.check.length));
  const lines = findings.map((f) => `${f.level.padEnd(4)}  ${f.check.padEnd(width)}  ${f.detail}${f.fix ? `: ${f.fix}` : ''}`);
  return ['deployment', ...lines, ''].join('\n');
}
