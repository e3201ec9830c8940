/**
 * `npm test`: lint beside the first part of the suite, then the serial part alone. The first part spends its time
 * waiting on sockets, child processes and deadlines, so lint's one core of work fits beside it; the serial part times
 * services and shares the machine with nothing (vitest.serial.config.ts). Lint's output is printed once it is done;
 * any failure fails the run, and a failed first part or lint skips the serial part.
 */
import { spawn } from 'node:child_process';
import process from 'node:process';

/** Runs a command; `quiet` keeps its output to hand back instead of interleaving it with the suite's. */
const run = (command, args, quiet = false) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });

const lint = run('npm', ['run', '-s', 'lint'], true);
const first = await run('npx', ['vitest', 'run']);
const linted = await lint;
process.stdout.write(linted.output);
if (!linted.ok) process.stderr.write('npm test: lint failed (npm run lint)\n');
if (!first.ok || !linted.ok) process.exit(1);
const serial = await run('npx', ['vitest', 'run', '--config', 'vitest.serial.config.ts']);
process.exit(serial.ok ? 0 : 1);
