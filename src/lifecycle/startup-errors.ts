import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, type Config } from '../config.js';
import { loadPg } from '../store/db.js';
import { GENERATE_KEY_COMMAND, KEY_FILE, listedKeys, loadSigningKey, parseVerifyingKey } from '../core/signing-keys.js';

/**
 * Exit codes of the start-up problems svc can name (docs/operations.md, "Start-up errors"). 2 is a
 * bad configuration value (config.ts); 1 stays Node's own for anything unexpected. Codes below 15
 * are avoided: Node uses them for its own failures. 24 and 25 are a disagreement with the other
 * instances on the database (lifecycle/cluster-checks.ts).
 */
export const STARTUP_EXIT = { database: 20, redis: 21, signingKey: 22, dataDir: 23, clusterKey: 24, clusterRedis: 25 } as const;

/** A start-up problem an operator can fix: the variable, what is wrong and what to do, in one line. */
export class StartupError extends Error {
  constructor(
    readonly variable: string,
    readonly exitCode: number,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

/** A database or Redis starting next to svc (compose, systemd) gets a few seconds before start-up gives up. */
const RETRY_DELAYS_MS = [250, 500, 1000, 2000];
const CONNECT_TIMEOUT_MS = 3000;

async function withRetry(probe: () => Promise<void>): Promise<void> {
  for (const delay of [...RETRY_DELAYS_MS, undefined]) {
    try {
      return await probe();
    } catch (error) {
      if (delay === undefined) throw error;
      await sleep(delay);
    }
  }
}

/** The URL as it may appear in a log: without its password. */
export function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

export async function probePostgres(url: string): Promise<void> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function probeRedis(url: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than the "Connection is closed" connect() rejects with.
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw socketError ?? error;
  } finally {
    redis.disconnect();
  }
}

async function checkReachable(variable: string, exitCode: number, url: string, probe: (url: string) => Promise<void>, fix: string) {
  try {
    await withRetry(() => probe(url));
  } catch (error) {
    const tries = RETRY_DELAYS_MS.length + 1;
    throw new StartupError(variable, exitCode, `cannot connect to ${redacted(url)} (${reason(error)}; ${tries} tries): ${fix}`);
  }
}

/** Free space the data directory must have at start-up: the SQLite file's first pages and its WAL, with room to spare. */
const FREE_SPACE_NEEDED_BYTES = 1 << 20;
/** The answers of a full disk: the file system's (no space, quota) and SQLite's. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

const noSpace = (dir: string, code: string) =>
  new StartupError(
    'SVC_DATA_DIR',
    STARTUP_EXIT.dataDir,
    `no space left in "${dir}" (${code}): free space on its disk, or set SVC_DATA_DIR to a directory on a disk with room`,
  );

function checkDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code && DISK_FULL_CODES.has(code)) throw noSpace(dir, code);
    throw new StartupError(
      'SVC_DATA_DIR',
      STARTUP_EXIT.dataDir,
      `cannot write to "${dir}" (${code ?? reason(error)}): create it and give the user svc runs as write access, or set SVC_DATA_DIR to a writable directory`,
    );
  }
  const probe = join(dir, '.svc-free-space-check');
  try {
    writeFileSync(probe, Buffer.alloc(FREE_SPACE_NEEDED_BYTES));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (DISK_FULL_CODES.has(code)) throw noSpace(dir, code);
    throw error;
  } finally {
    rmSync(probe, { force: true });
  }
}

/** A full disk met past the checks (the migrations of a first start filled it): the same one line as the check's. */
function diskFullAtStart(error: unknown, dir: string): StartupError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && DISK_FULL_CODES.has(code)) return noSpace(dir, code);
  }
  return undefined;
}

function checkSigningKey(config: Config): void {
  const { signingKey: configured, dataDir } = config;
  if (!configured && config.databaseUrl) throw missingSharedKey(dataDir);
  try {
    loadSigningKey(configured, dataDir);
  } catch (error) {
    throw new StartupError(
      'SVC_SIGNING_KEY',
      STARTUP_EXIT.signingKey,
      configured
        ? `not an Ed25519 private key (${reason(error)}): give a PKCS#8 PEM or its base64 DER (${GENERATE_KEY_COMMAND}), or unset it to keep a key in SVC_DATA_DIR`
        : `unset, and ${join(dataDir, KEY_FILE)} is not an Ed25519 private key (${reason(error)}): restore that file, or set SVC_SIGNING_KEY`,
    );
  }
}

function checkPreviousKeys(config: Config): void {
  for (const [i, item] of listedKeys(config.signingKeysPrevious).entries()) {
    try {
      parseVerifyingKey(item);
    } catch (error) {
      throw new StartupError(
        'SVC_SIGNING_KEYS_PREVIOUS',
        STARTUP_EXIT.signingKey,
        `item ${i + 1} is not an Ed25519 public or private key (${reason(error)}): give SPKI or PKCS#8, PEM or base64 DER, separated by commas`,
      );
    }
  }
}

/** On a shared database every instance must sign with the same key: one made up in a data directory would be this instance's alone. */
function missingSharedKey(dataDir: string): StartupError {
  const file = join(dataDir, KEY_FILE);
  const keep = existsSync(file)
    ? `, or keep the one this instance used so far: openssl pkey -in ${file} -outform DER | openssl base64 -A`
    : '';
  return new StartupError(
    'SVC_SIGNING_KEY',
    STARTUP_EXIT.signingKey,
    `unset, but DATABASE_URL is shared by every instance and each would sign with a key of its own: generate one with ${GENERATE_KEY_COMMAND} and give every instance the same SVC_SIGNING_KEY${keep}`,
  );
}

/**
 * What start-up needs from outside the process, checked before anything starts: a writable data
 * directory (SQLite or the signing key file live there), a signing key that parses, and a database
 * and Redis that answer.
 */
export async function checkStartup(config: Config): Promise<void> {
  if (!config.databaseUrl || !config.signingKey) checkDataDir(config.dataDir);
  checkSigningKey(config);
  checkPreviousKeys(config);
  if (config.databaseUrl)
    await checkReachable('DATABASE_URL', STARTUP_EXIT.database, config.databaseUrl, probePostgres, 'start PostgreSQL or correct the URL');
  if (config.redisUrl)
    await checkReachable(
      'REDIS_URL',
      STARTUP_EXIT.redis,
      config.redisUrl,
      probeRedis,
      'start Redis, correct the URL, or unset it to run one instance without Redis',
    );
}

/**
 * For the entry points: runs a start-up step (the checks, opening the store) and turns a problem it
 * can name into one line on stderr and its exit code, not a stack trace. A configuration problem found
 * there (createDeps checks SVC_STREAM_WATCH against the registry) exits 2, as loadConfigOrExit does.
 */
export async function orExitOnStartupError<T>(config: Config, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    const named = error instanceof StartupError ? error : config.databaseUrl ? undefined : diskFullAtStart(error, config.dataDir);
    if (!named) throw error;
    process.stderr.write(`svc cannot start: ${named.message}\n`);
    process.exit(named.exitCode);
  }
}

/** checkStartup for the entry points. */
export const checkStartupOrExit = (config: Config): Promise<void> => orExitOnStartupError(config, () => checkStartup(config));
