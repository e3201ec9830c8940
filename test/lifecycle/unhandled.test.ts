import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

/**
 * A rejection nobody handles ends a Node process by default. The server's guard logs and counts it
 * instead; this runs the guard in a process of its own, where Node's default would apply.
 */
it('an unhandled rejection is logged and counted, and the process goes on', async () => {
  const script = `
    import { BackgroundErrors } from './src/core/background.ts';
    import { surviveUnhandledRejections } from './src/lifecycle/unhandled.ts';
    const counted = [];
    const background = new BackgroundErrors((job) => counted.push(job));
    background.logTo({ warn() {}, info() {}, error: (fields, msg) => console.log(msg, fields.err.message) });
    surviveUnhandledRejections(background);
    void Promise.reject(new Error('nobody caught me'));
    setTimeout(() => console.log('still running', counted.join()), 50);
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  expect(stdout).toBe(
    'unhandled promise rejection (a bug: please report it); the process continues nobody caught me\nstill running unhandled_rejection\n',
  );
}, 60_000);
