import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../helpers/deployment.js';
import { freePort } from '../helpers/ports.js';

/**
 * Issue 39: packages a lean service does not need until a feature is used load on first use (`importOnce`,
 * `requireOnce`), so the idle process stays small. Each is named here so that a static import slipping back in fails.
 */
const LOADED_ON_FIRST_USE = [
  'fast-xml-parser',
  'csv-parse',
  'trading-signals',
  'jose',
  'viem',
  'plaid',
  'stripe',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  '@modelcontextprotocol/sdk',
  'sharp',
  'linkedom',
];
const START_UP_MS = 60_000;

const packagesIn = (paths: string[]) =>
  new Set(paths.map((path) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1]).filter((name) => name !== undefined));

let child: ChildProcess;
let base: string;

const loadedPackages = async () => {
  child.send('loaded-modules');
  const [paths] = (await once(child, 'message')) as [string[]];
  return packagesIn(paths);
};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  let log = '';
  // As the bench runs it (bench/server-process.ts): SQLite, no Redis, no scheduler.
  child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/helpers/loaded-modules.ts', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-start-up-')),
      SVC_SCHEDULER: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  await untilReady(`${base}/healthz`, START_UP_MS / 1000).catch((error: Error) => {
    throw new Error(`${error.message}:\n${log}`);
  });
}, START_UP_MS + 5_000);

afterAll(() => {
  child.kill('SIGTERM');
});

describe('What the service loads at start-up', () => {
  it('loads none of the packages kept for first use, and does load the ones every request needs', async () => {
    const loaded = await loadedPackages();
    // Both kinds of module are seen: fastify is CommonJS, typebox an ES module.
    expect(loaded).toContain('fastify');
    expect(loaded).toContain('typebox');
    expect(LOADED_ON_FIRST_USE.filter((name) => loaded.has(name))).toEqual([]);
  });
});
