/**
 * `npm run conformance -- --url <svc>`: the conformance check of issue 35 (packages/client/src/conformance.ts, also
 * `npx @svc-data/client conformance <url>`) against a running svc, or, without --url, against a demo started here as
 * `npm run demo` starts it (the demo world, its last hour recorded; its x402 recipient is the zero address, so it
 * accepts test payments and the retry checks run). Prints the table; exits 1 on any miss.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatReport, runConformance } from '../packages/client/src/conformance.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { startDemo } from '../src/demo/start-up.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The demo on a free port with a temp data directory and no scheduler; its default rate limits stay, so 429s are met.
 * `env` adds configuration (the test trusts X-Forwarded-For from the loopback to run phases as separate clients).
 */
export async function startDemoServer(env: Record<string, string> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-conformance-'));
  const url = `http://127.0.0.1:${port}`;
  const loaded = loadConfig({
    SVC_DEMO: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_DATA_DIR: dataDir,
    SVC_PUBLIC_URL: url,
    SVC_SCHEDULER: '0',
    ...env,
  });
  const demo = await startDemo(loaded);
  const deps = await createDeps(demo.config);
  const app = await buildApp(deps, { logger: { level: 'warn' } });
  await demo.prepare(app, deps);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    close: async () => {
      await app.close();
      await deps.close();
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--url');
  const given = at === -1 ? undefined : argv[at + 1];
  const demo = given ? undefined : await startDemoServer();
  try {
    const report = await runConformance(given ?? demo!.url, { log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(`${formatReport(report)}\n`);
    return report.misses ? 1 : 0;
  } finally {
    await demo?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main(process.argv.slice(2));
