/**
 * nginx + nchan (Debian's `nginx` and `libnginx-mod-nchan`), the usual dedicated SSE push server, as
 * the fan-out benchmark's reference: one worker process, EventSource subscribers on /sub?id=, a
 * publisher on /pub?id=. Runs from a temporary prefix in the foreground, with the open-file limit
 * raised for 10,000 watchers. Undefined when nginx or the module is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from './server-process.js';

const NGINX = '/usr/sbin/nginx';
const NCHAN = '/usr/lib/nginx/modules/ngx_nchan_module.so';
const OPEN_FILES = 20_000;

export const nchanMissing = (): string | undefined =>
  [NGINX, NCHAN].filter((path) => !existsSync(path)).map((path) => `${path} not found (apt-get install nginx libnginx-mod-nchan)`)[0];

const config = (port: number) => `load_module ${NCHAN};
worker_processes 1;
worker_rlimit_nofile ${OPEN_FILES};
error_log error.log warn;
pid nginx.pid;
events { worker_connections ${OPEN_FILES - 100}; }
http {
  access_log off;
  server {
    listen 127.0.0.1:${port};
    location /sub { nchan_subscriber eventsource; nchan_channel_id $arg_id; }
    location /pub { nchan_publisher; nchan_channel_id $arg_id; }
  }
}
`;

export async function startNchan(port: number): Promise<{ child: ChildProcess; base: string }> {
  const prefix = mkdtempSync(join(tmpdir(), 'nchan-bench-'));
  writeFileSync(join(prefix, 'nginx.conf'), config(port));
  const command = `ulimit -n ${OPEN_FILES} 2>/dev/null || ulimit -n $(ulimit -Hn); exec ${NGINX} -p ${prefix} -c nginx.conf -g 'daemon off;'`;
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const answered = await fetch(`${base}/pub?id=probe`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (answered) return { child, base };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('nginx did not start within 10 s');
}
