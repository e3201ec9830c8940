import { startServer } from './lib.js';
import { Registry, registry } from '../src/sources/registry.js';
const PATH = '/api/data/preview?type=crypto-price&q=bitcoin';
const plainReg = new Registry(registry.all().map((d) => (d.type === 'crypto-price' ? { ...d, corroboration: undefined } : d)));
async function measure(reg: Registry | undefined) {
  const svc = await startServer({}, { registry: reg });
  for (let i = 0; i < 3; i++) { await fetch(svc.url + PATH).then((r) => r.arrayBuffer()); await new Promise((r) => setTimeout(r, 300)); }
  const ts: number[] = [];
  for (let i = 0; i < 2000; i++) { const s = performance.now(); await fetch(svc.url + PATH).then((r) => r.arrayBuffer()); ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b);
  await svc.close();
  return ts[1000]!.toFixed(3);
}
const order = process.argv[2] === 'plain-first' ? [plainReg, undefined] : [undefined, plainReg];
for (const r of [...order, ...order]) console.log(r ? 'plain' : 'corroborated', await measure(r));
process.exit(0);
