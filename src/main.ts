import { loadConfigOrExit } from './config.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { startDemo } from './demo/start-up.js';

async function main(): Promise<void> {
  const loaded = loadConfigOrExit(process.env);
  const demo = loaded.demo ? await startDemo(loaded) : undefined;
  const config = demo?.config ?? loaded;

  const deps = await createDeps(config);
  const app = await buildApp(deps, { logger: { level: config.logLevel } });
  await demo?.prepare(app, deps);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await deps.close();
    await demo?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
}

await main();
