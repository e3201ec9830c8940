import pino from 'pino';
import { loggerOptions, redactUrl } from './dist/src/plugins/server-options.js';
import { createWriteStream } from 'node:fs';
const dest = pino.destination({ dest: '/dev/null', sync: false });
const opts = loggerOptions('info');
const l = pino(opts, dest);
const bare = pino({ level: 'info' }, dest);
function t(name, f, n = 200000) { for (let i = 0; i < 30000; i++) f(i); const t0 = process.hrtime.bigint(); for (let i = 0; i < n; i++) f(i); console.log(name.padEnd(30), (Number(process.hrtime.bigint() - t0) / n).toFixed(0), 'ns'); }
const request = { method: 'GET', url: '/api/data/preview?type=crypto-price&q=bitcoin,ethereum', ip: '127.0.0.1', headers: {} };
const reply = { statusCode: 200 };
for (let r = 0; r < 2; r++) {
t('child+info (today)', (i) => l.child({ reqId: 'abc' + i }).info({ req: request, res: reply, responseTime: 1.2 }, 'request completed'));
t('root info reqId field', (i) => l.info({ reqId: 'abc' + i, req: request, res: reply, responseTime: 1.2 }, 'request completed'));
t('no redact root', (i) => bare.info({ reqId: 'abc' + i, req: { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }, res: reply, responseTime: 1.2 }, 'request completed'));
t('redactUrl', (i) => redactUrl(request.url));
}
