/**
 * The reference for the cached preview: a bare Fastify route in a process of its own sending fixed,
 * pre-serialized bytes with a fixed set of headers, so it does the framework's minimum per request
 * (no JSON serialization, no hooks). Argument: JSON `{body, headers}` (body base64); prints its port
 * as one line and exits when its stdin closes.
 */
import Fastify from 'fastify';

const { body, headers } = JSON.parse(process.argv[2] ?? '{}') as { body: string; headers: Record<string, string> };
const bytes = Buffer.from(body, 'base64');
const app = Fastify();
app.get('/bare', (_request, reply) => {
  reply.headers(headers).send(bytes);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${new URL(address).port}\n`);
process.stdin.resume();
process.stdin.on('end', () => void app.close().then(() => process.exit(0)));
