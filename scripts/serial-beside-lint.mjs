/**
 * The last step of `npm test`: the serial part of the suite (vitest.serial.config.ts) and lint at the same time.
 * The serial files spend their time waiting on the services they start and kill, two files at a time, while lint
 * (ESLint's type-checked rules, then Prettier) wants one core: side by side they take about as long as the longer
 * of the two instead of the sum (CONTRIBUTING.md has the figures). Lint's output is held back and printed after
 * the serial part's, so the two never interleave; the exit code is non-zero if either failed.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

/** Runs a command line (npm puts node_modules/.bin on PATH), resolving with its exit code. */
function run(commandLine, { captureOutput }) {
  const child = spawn(commandLine, {
    shell: true,
    stdio: ['ignore', captureOutput ? 'pipe' : 'inherit', captureOutput ? 'pipe' : 'inherit'],
  });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output })));
}

const lint = run('npm run -s lint', { captureOutput: true });
const serial = await run('vitest run --config vitest.serial.config.ts', { captureOutput: false });
const linted = await lint;
process.stdout.write(Buffer.concat(linted.output));
process.stdout.write(linted.code === 0 ? 'lint: passed\n' : `lint: failed (exit ${linted.code})\n`);
process.exitCode = serial.code !== 0 ? serial.code : linted.code;
