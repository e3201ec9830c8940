/**
 * The upstream simulator in a process of its own, as real upstreams are other machines: the server's
 * CPU then counts only its own work. Argument: JSON `{host: delayMs}`; prints the simulator's
 * UPSTREAM_* environment as one JSON line, and exits when its stdin closes.
 */
import { Simulator } from '../src/demo/simulator.js';
import { loadFixtures } from '../src/upstream/fixtures.js';

const delays = JSON.parse(process.argv[2] ?? '{}') as Record<string, number>;
const sim = await new Simulator(loadFixtures()).start();
for (const [host, ms] of Object.entries(delays)) sim.fault(host, { kind: 'delay', ms });
process.stdout.write(`${JSON.stringify(sim.env())}\n`);
process.stdin.resume();
process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
