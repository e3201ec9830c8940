/**
 * Records the OpenAPI response examples from demo-mode answers (recorded fixtures, a fixed clock):
 * `npm run docs:examples` rewrites src/plugins/openapi-examples.json. A test replays the same calls
 * against the test app and fails when the file no longer matches what the service answers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ManualClock, unixSeconds } from '../src/core/clock.js';
import { createDeps } from '../src/deps.js';
import { Simulator } from '../src/demo/simulator.js';
import { loadFixtures } from '../src/upstream/fixtures.js';
import { EXAMPLES_FILE, type Examples } from '../src/plugins/openapi.js';

export const EXAMPLE_BASE_URL = 'https://svc.example.org';
/** Arrays in examples keep this many items: enough to show the shape. */
const KEEP = 3;

interface ExampleCall {
  operationId: string;
  status: number;
  method: 'GET' | 'POST';
  url: (nowS: number) => string;
  payload?: object;
}

const get = (operationId: string, url: string | ((nowS: number) => string), status = 200): ExampleCall => ({
  operationId,
  status,
  method: 'GET',
  url: typeof url === 'string' ? () => url : url,
});
const post = (operationId: string, url: string, payload: object, status = 200): ExampleCall => ({
  operationId,
  status,
  method: 'POST',
  url: () => url,
  payload,
});

export const EXAMPLE_CALLS: ExampleCall[] = [
  get('getDataPreview', '/api/data/preview?type=crypto-price&q=bitcoin'),
  get('getDataPreview', '/api/data/preview?type=crypto-price&q=Bitcoin%20Cash!', 400),
  post('postDataBundle', '/api/data/bundle?free=1', {
    queries: [
      { type: 'crypto-price', q: 'bitcoin' },
      { type: 'weather', q: '40.7128,-74.0060' },
    ],
  }),
  post('postDataBundle', '/api/data/bundle', { queries: [{ type: 'crypto-price', q: 'bitcoin' }] }, 402),
  get('getEntityResolve', '/api/v1/entity/resolve?q=ethereum&limit=2'),
  get('getEntityById', '/api/v1/entity/svc-ent:cr.ethereum'),
  get('getBacktest', (nowS) => `/api/v1/backtest?type=crypto-price&q=SOL&from=${nowS - 86_400}&to=${nowS}`),
  get('getAgentContext', '/api/v1/agent-context?goal=should%20I%20buy%20ETH&free=1'),
  post('postCalibCalibrateP', '/api/v1/calib/calibrate_p', { agent_id: 'example:agent-1', kind: 'price-up', predicted_p: 0.7 }),
];

const trim = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.slice(0, KEEP).map(trim);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v)]));
  return value;
};

/** Answers of EXAMPLE_CALLS, arrays cut to a few items, URLs on the example host. */
export async function recordExamples(app: FastifyInstance, nowS: number, baseUrl: string): Promise<Examples> {
  const examples: Examples = {};
  for (const call of EXAMPLE_CALLS) {
    const res = await app.inject({ method: call.method, url: call.url(nowS), ...(call.payload ? { payload: call.payload } : {}) });
    if (res.statusCode !== call.status)
      throw new Error(`${call.operationId}: expected ${call.status}, got ${res.statusCode}: ${res.body.slice(0, 300)}`);
    const body = JSON.parse(res.body.replaceAll(baseUrl, EXAMPLE_BASE_URL)) as unknown;
    (examples[call.operationId] ??= {})[String(call.status)] = trim(body);
  }
  return examples;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-examples-'));
  const clock = new ManualClock();
  // The recorded fixtures as the test suite serves them, so the examples test can replay the same calls.
  const demo = await new Simulator(loadFixtures()).start();
  const config = loadConfig({ SVC_DATA_DIR: dataDir, SVC_PUBLIC_URL: EXAMPLE_BASE_URL, SVC_SCHEDULER: '0' });
  // Every corroboration source answers in the examples, as in the test that replays them.
  const deps = await createDeps({ ...config, upstreams: demo.pointAt(config.upstreams) }, { clock, signAtQuorum: false });
  const app = await buildApp(deps);
  try {
    const examples = await recordExamples(app, unixSeconds(clock), EXAMPLE_BASE_URL);
    writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 1)}\n`);
    console.log(`wrote ${Object.keys(examples).length} operations' examples to ${EXAMPLES_FILE.pathname}`);
  } finally {
    await app.close();
    await deps.close();
    await demo.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
