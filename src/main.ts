import { loadConfigOrExit } from './config.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { startDemoSimulator } from './demo/simulator.js';
import { exitOnSignals } from './lifecycle/shutdown.js';
import { userAgentWarning } from './upstream/user-agent.js';

async function main(): Promise<void> {
  let config = loadConfigOrExit(process.env);
  const demo = config.demo ? await startDemoSimulator(config.demoSeed) : undefined;
  if (demo) config = { ...config, upstreams: demo.pointAt(config.upstreams) };

  const deps = await createDeps(config);
  const app = await buildApp(deps, { logger: { level: config.logLevel } });
  const placeholderContact = userAgentWarning(config.userAgent);
  if (placeholderContact && !demo) app.log.warn(placeholderContact);
  if (demo)
    app.log.warn(
      { simulator: demo.url },
      'SVC_DEMO=1: every upstream is served by the demo simulator; answers and receipts say source_mode "demo"',
    );

  const closeResources = async () => {
    await deps.close();
    await demo?.close();
  };
  exitOnSignals(app, { timeoutMs: config.shutdownTimeoutMs, closeResources });

  await app.listen({ port: config.port, host: config.host });
}

await main();
