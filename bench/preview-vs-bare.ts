/**
 * (a) A cached, signed preview versus a bare Fastify JSON route started in the same run and
 * answering the same JSON body.
 * autocannon runs in its own process. Prints JSON: both throughputs and their ratio (target ≥ 0.7).
 */
import Fastify from 'fastify';
import { runExternal, startServer, summary } from './lib.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;

const svc = await startServer();
const previewUrl = `${svc.url}/api/data/preview?type=crypto-price&q=bitcoin,ethereum`;
// Warm the cache and the receipt; the bare route then serves this very body, so both send the same bytes.
const sameBody = (await (await fetch(previewUrl)).json()) as unknown;

const bare = Fastify();
bare.get('/bare', async () => sameBody);
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const previews = await runExternal(previewUrl, CONNECTIONS, DURATION_S);
const bareRun = await runExternal(`${bareUrl}/bare`, CONNECTIONS, DURATION_S);

console.log(
  JSON.stringify(
    {
      bench: 'cached signed preview vs bare Fastify route',
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      preview: summary(previews),
      bare: summary(bareRun),
      ratio: Number((previews.requests.average / bareRun.requests.average).toFixed(3)),
      target_ratio: 0.7,
    },
    null,
    2,
  ),
);
await bare.close();
await svc.close();
