import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

/**
 * Issue 39: JSON log lines go to stdout through sonic-boom in buffer mode (src/plugins/log-destination.ts). Run in a
 * process of its own, as the server runs it: lines logged in bursts while writes are under way, with characters of
 * two to four UTF-8 bytes, then an exit with lines still pending, reach stdout whole and in order.
 */
it('writes every line, multi-byte characters included, in order, the pending ones at exit', async () => {
  const script = `
    import Fastify from 'fastify';
    import { stdoutLogDestination } from './src/plugins/log-destination.ts';
    import { loggerOptions } from './src/plugins/server-options.ts';
    const { log } = Fastify({ logger: loggerOptions('info', stdoutLogDestination()) });
    const burst = (b) => { for (let i = 0; i < 400; i++) log.info({ b, i, text: 'é€😀'.repeat(i % 7) }, 'line'); };
    let b = 0;
    const next = () => { burst(b++); if (b < 5) setImmediate(next); else process.exit(0); };
    next();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { b: number; i: number; text: string });
  expect(lines).toHaveLength(2000);
  lines.forEach((line, n) => expect(line).toMatchObject({ b: Math.floor(n / 400), i: n % 400, text: 'é€😀'.repeat((n % 400) % 7) }));
}, 60_000);
