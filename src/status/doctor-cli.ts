/**
 * `npm run doctor [-- --json] [--types a,b] [--deadline-ms N] [--budget-s N] [--concurrency N]`: checks every data
 * type against the upstreams configured by the environment (the same variables as the service) and exits 1 when a
 * type fails, needs a key or was not reached within the time budget. With SVC_DEMO=1 it checks the demo simulator.
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.js';
import { startDemoSimulator } from '../demo/simulator.js';
import { registry } from '../sources/registry.js';
import { formatDoctor, runDoctor } from './doctor.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    types: { type: 'string' },
    'deadline-ms': { type: 'string' },
    'budget-s': { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const positive = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`--${name}: a positive whole number (got "${text}")\n`);
    process.exit(2);
  }
  return n;
};

const types = values.types?.split(',').map((t) => t.trim());
const unknown = types?.filter((t) => !registry.get(t));
if (unknown?.length) {
  process.stderr.write(`--types: unknown data type ${unknown.join(', ')} (known: ${registry.types().join(', ')})\n`);
  process.exit(2);
}

let config = loadConfigOrExit(process.env);
const demo = config.demo ? await startDemoSimulator(config.demoSeed) : undefined;
if (demo) config = { ...config, upstreams: demo.pointAt(config.upstreams) };
const budgetS = positive('budget-s', values['budget-s']);
const report = await runDoctor(config, {
  types,
  deadlineMs: positive('deadline-ms', values['deadline-ms']),
  budgetMs: budgetS === undefined ? undefined : budgetS * 1000,
  concurrency: positive('concurrency', values.concurrency),
});
await demo?.close();
process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
process.exitCode = report.failed > 0 ? 1 : 0;
