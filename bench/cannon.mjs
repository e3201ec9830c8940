// The load generator, run in its own process: node bench/cannon.mjs < options.json prints autocannon's JSON result.
// Options (JSON on stdin): url, connections, duration (or amount: requests in all), headers, and optionally paths (each connection starts at its own offset).
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

const { url, connections, duration, amount, headers = {}, paths } = JSON.parse(readFileSync(0, 'utf8'));
let client = 0;
const rotate = (list, by) => [...list.slice(by), ...list.slice(0, by)];
const setupClient = paths
  ? (c) => c.setRequests(rotate(paths, Math.floor((client++ * paths.length) / connections)).map((path) => ({ method: 'GET', path })))
  : undefined;
const result = await autocannon({ url, connections, ...(amount ? { amount } : { duration }), headers, ...(setupClient ? { setupClient, requests: [{ method: 'GET', path: paths[0] }] } : {}) });
process.stdout.write(JSON.stringify(result));
