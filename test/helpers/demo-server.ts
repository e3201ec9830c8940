import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { startDemo } from '../../src/demo/start-up.js';
import { freePort } from './ports.js';

export interface DemoServer {
  url: string;
  close(): Promise<void>;
}

/** What `npm run demo` starts (src/main.ts under SVC_DEMO=1), listening on a free port with a temp data directory. */
export async function startDemoServer(env: Record<string, string> = {}): Promise<DemoServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-server-'));
  const demo = await startDemo(
    loadConfig({
      SVC_DEMO: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_PUBLIC_URL: `http://127.0.0.1:${port}`,
      SVC_SCHEDULER: '0',
      SVC_RATE_ANON_PER_MIN: '1000000',
      ...env,
    }),
  );
  const deps = await createDeps(demo.config);
  const app = await buildApp(deps, { logger: { level: 'warn' } });
  await demo.prepare(app, deps);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await deps.close();
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
