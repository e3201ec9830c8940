// The load generator, run in its own process: node bench/cannon.mjs < options.json prints autocannon's JSON result.
// Options (JSON on stdin): url, connections, duration (or amount: requests in all), headers, and optionally
// requests: [{method, path, body}], which each connection walks from its own offset.
import autocannon from 'autocannon';
import process from 'node:process';

// Read as a stream: a synchronous read of a pipe fails with EAGAIN while a large spec is still arriving.
let spec = '';
for await (const chunk of process.stdin) spec += chunk;
const { url, connections, duration, amount, headers = {}, requests } = JSON.parse(spec);
let client = 0;
const rotate = (list, by) => [...list.slice(by), ...list.slice(0, by)];
const offset = () => Math.floor((client++ * requests.length) / connections);
const setupClient = requests ? (c) => c.setRequests(rotate(requests, offset())) : undefined;
const walk = requests ? { setupClient, requests: [requests[0]] } : {};
const result = await autocannon({ url, connections, ...(amount ? { amount } : { duration }), headers, ...walk });
process.stdout.write(JSON.stringify(result));
