import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';

/**
 * Issue 39: JSON log lines go to stdout through sonic-boom in buffer mode, each written synchronously as it is logged
 * (src/plugins/log-destination.ts). Run in a process of its own, as the server runs it.
 */
const logging = (body: string) => {
  const script = `
    import Fastify from 'fastify';
    import { stdoutLogDestination } from './src/plugins/log-destination.ts';
    import { loggerOptions } from './src/plugins/server-options.ts';
    const { log } = Fastify({ logger: loggerOptions('info', stdoutLogDestination()) });
    ${body}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  const output = { text: '' };
  child.stdout.on('data', (chunk: string) => (output.text += chunk));
  return { child, output };
};

it('writes every line, multi-byte characters included, in order, the pending ones at exit, to a reader that holds off', async () => {
  const { child, output } = logging(`
    const burst = (b) => { for (let i = 0; i < 400; i++) log.info({ b, i, text: 'é€😀'.repeat(i % 7) }, 'line'); };
    let b = 0;
    const next = () => { burst(b++); if (b < 5) setImmediate(next); else process.exit(0); };
    next();
  `);
  // The reader holds off for a moment, as a busy log shipper does: the pipe fills and writes wait on it. Written
  // asynchronously, the lines pending at exit overtook a batch still in flight (2 runs in 5).
  child.stdout.pause();
  setTimeout(() => child.stdout.resume(), 300);
  await once(child, 'close');
  const lines = output.text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { b: number; i: number; text: string });
  expect(lines).toHaveLength(2000);
  lines.forEach((line, n) => expect(line).toMatchObject({ b: Math.floor(n / 400), i: n % 400, text: 'é€😀'.repeat((n % 400) % 7) }));
}, 60_000);

it('writes a lone line at once, while the process runs on', async () => {
  const { child, output } = logging(`log.info({ lone: true }, 'line'); setInterval(() => {}, 1000);`);
  try {
    await expect.poll(() => output.text, { timeout: 20_000 }).toContain('"lone":true');
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill();
  }
}, 30_000);
