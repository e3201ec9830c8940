#!/usr/bin/env node
/** `svc-doctor` (`npm run doctor` in a checkout): USAGE below says what it checks and how it exits. */
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config.js';
import { startDemoSimulator } from '../demo/simulator.js';
import { registry } from '../sources/registry.js';
import { formatDoctor, runDoctor, type DoctorReport } from './doctor.js';
import { formatDeployment, runDeploymentChecks } from './doctor-deployment.js';

const USAGE = `usage: svc-doctor [--json] [--skip-types] [--types a,b] [--deadline-ms N] [--budget-s N] [--concurrency N] [-h]

Checks the deployment (database, Redis, public URL and proxy trust, free space), then every data type against the
upstreams the environment configures (the service's own variables; with SVC_DEMO=1, the demo's simulator).
Exit 0: all good; 1: a deployment check failed, or a type failed, needs a key or was not reached within the budget;
2: bad arguments.

  --json            the report as JSON
  --skip-types      the deployment checks only
  --types a,b       only these data types
  --deadline-ms N   each type's deadline
  --budget-s N      the whole check's time budget
  --concurrency N   types checked at once
`;

/** The options, or usage on stderr and exit 2 (an unknown option is a usage error, not a crash). */
function parseOptions() {
  try {
    return parseArgs({
      options: {
        help: { type: 'boolean', short: 'h', default: false },
        json: { type: 'boolean', default: false },
        'skip-types': { type: 'boolean', default: false },
        types: { type: 'string' },
        'deadline-ms': { type: 'string' },
        'budget-s': { type: 'string' },
        concurrency: { type: 'string' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`svc-doctor: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const values = parseOptions();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
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

const budgetS = positive('budget-s', values['budget-s']);
const doctorOptions = {
  types,
  deadlineMs: positive('deadline-ms', values['deadline-ms']),
  budgetMs: budgetS === undefined ? undefined : budgetS * 1000,
  concurrency: positive('concurrency', values.concurrency),
};

let config = loadConfigOrExit(process.env);
const deployment = await runDeploymentChecks(config);
const deploymentFailed = deployment.filter((f) => f.level === 'fail').length;

async function checkTypes(): Promise<DoctorReport> {
  const demo = config.demo ? await startDemoSimulator(config.demoSeed) : undefined;
  if (demo) config = { ...config, upstreams: demo.pointAt(config.upstreams) };
  try {
    return await runDoctor(config, doctorOptions);
  } finally {
    await demo?.close();
  }
}

const report = values['skip-types'] ? undefined : await checkTypes();
const output = values.json
  ? `${JSON.stringify({ deployment, ...report }, null, 2)}\n`
  : [formatDeployment(deployment), report ? formatDoctor(report) : ''].join('\n');
process.stdout.write(output);
// A probe cut off at its deadline may hold a socket open: the answer is given, so end here.
process.exit(deploymentFailed + (report?.failed ?? 0) > 0 ? 1 : 0);
