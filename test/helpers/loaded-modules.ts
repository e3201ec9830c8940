/**
 * Preloaded (`--import`) into a service started as a process: it records every module the process loads, ES modules
 * through a module hook and CommonJS ones from `require.cache`, and sends the list to the parent when asked
 * (`child.send('loaded-modules')`). Tests use it to check what start-up loads; in-process tests cannot, since the
 * suite's workers share one module graph between files.
 */
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const HOOKS = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;

const esModules = new Set<string>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => esModules.add(url));
port1.unref();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { port: port2 }, transferList: [port2] });

const require = createRequire(import.meta.url);
process.on('message', (message) => {
  if (message === 'loaded-modules') process.send!([...esModules, ...Object.keys(require.cache)]);
});
