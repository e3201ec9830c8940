#!/usr/bin/env node
import './lifecycle/v8-flags.js';
import { loadConfigOrExit } from './config.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { exitOnSignals } from './lifecycle/shutdown.js';
import { runWorkers, type Generation } from './lifecycle/workers.js';
import { checkStartupOrExit, orExitOnStartupError } from './lifecycle/startup-errors.js';
import { surviveUnhandledRejections } from './lifecycle/unhandled.js';
import { joinClusterOrExit, keyEventLine } from './lifecycle/cluster-checks.js';
import { buildInfo } from './core/build-info.js';
import { userAgentWarning } from './upstream/user-agent.js';
import { prettyLogStream } from './plugins/pretty-log.js';
import { stdoutLogDestination } from './plugins/log-destination.js';
import { unknownVariableWarnings } from './config-unknown.js';

/** A replacement worker (SVC_WORKERS) skips the start-up work its first generation did: migrations, the demo's past. */
async function main(generation: Generation): Promise<void> {
  const loaded = loadConfigOrExit(process.env);
  await checkStartupOrExit(loaded);
  // The demo's world (simulator, fixtures, fakes, past) is loaded only in demo mode: it is megabytes a live server never uses.
  const demo = loaded.demo ? await (await import('./demo/start-up.js')).startDemo(loaded) : undefined;
  const config = demo?.config ?? loaded;

  const deps = await orExitOnStartupError(config, () => createDeps(config, { migrate: generation === 'first' }));
  const joined = await joinClusterOrExit(deps);
  const stream = config.logFormat === 'pretty' ? prettyLogStream(process.stdout) : stdoutLogDestination();
  const app = await buildApp(deps, { logger: { level: config.logLevel, stream } });
  surviveUnhandledRejections(deps.background);
  app.log.info({ ...buildInfo, kid: joined.kid }, keyEventLine(joined));
  const placeholderContact = userAgentWarning(config.userAgent);
  if (placeholderContact && !demo) app.log.warn(placeholderContact);
  // Once per deployment: a replacement worker would repeat what the first generation said.
  if (generation === 'first') for (const warning of unknownVariableWarnings(process.env)) app.log.warn(warning);
  if (generation === 'first') await demo?.prepare(app, deps);

  const closeResources = async () => {
    await deps.close();
    await demo?.close();
  };
  exitOnSignals(app, { timeoutMs: config.shutdownTimeoutMs, drainMs: config.shutdownDrainMs, closeResources });

  await app.listen({ port: config.port, host: config.host });
}

if (process.argv.includes('--version')) {
  process.stdout.write(`svc-server ${buildInfo.version} (commit ${buildInfo.commit ?? 'unknown'})\n`);
  process.exit(0);
}
await runWorkers(loadConfigOrExit(process.env).workers, main);
