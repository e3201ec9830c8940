import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../helpers/ports.js';

/**
 * scripts/rolling-restart.sh's order of steps, without a balancer: the restart command and `/readyz` are stand-ins
 * (an echo, a server answering 200), so what is checked is the script's own sequence and output. The real restart
 * under load is test/lifecycle/rolling-restart.test.ts.
 */
const run = promisify(execFile);
const server = createServer((_request, response) => response.end('ready'));
let readyUrl = '';

beforeAll(async () => {
  readyUrl = `http://127.0.0.1:${await listenOnLoopback(server)}/readyz?instance={}`;
});
afterAll(() => server.close());

const rollingRestart = (...args: string[]) =>
  run('bash', ['scripts/rolling-restart.sh', '--restart', 'echo restarted {}', '--ready-url', readyUrl, '--settle', '0', ...args]);

describe('scripts/rolling-restart.sh', () => {
  it('restarts each instance in turn and settles after each, the last one included', async () => {
    const { stdout } = await rollingRestart('a', 'b', 'a');
    const steps = stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^\d\d:\d\d:\d\d rolling-restart: /, ''));
    expect(steps).toEqual([
      'a: restarting',
      'restarted a',
      'a: ready; letting the balancer take it back for 0s',
      'b: restarting',
      'restarted b',
      'b: ready; letting the balancer take it back for 0s',
      'a: restarting',
      'restarted a',
      // The last one settles too: when the script returns, the balancer sends to every instance again, so whatever
      // follows at once (another run, an upgrade) does not find one still counted out.
      'a: ready; letting the balancer take it back for 0s',
      'done: a b a',
    ]);
  });

  it('refuses an unknown option and a call without instances, exit code 2', async () => {
    await expect(rollingRestart('--settel', '3', 'a')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown option --settel'),
    });
    await expect(rollingRestart()).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('name at least one instance') });
  });
});
