// After `tsc -p tsconfig.build.json`: the data files the compiled code reads next to itself (curated
// JSON, fixtures, evaluation sets) and the public pages, copied into dist/ with the same layout; and the
// commit being built (SVC_COMMIT, else the checkout's HEAD, else null) for `svc-server --version`,
// /healthz and svc_build_info (src/core/build-info.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import process from 'node:process';

cpSync('src', 'dist/src', { recursive: true, filter: (path) => !path.endsWith('.ts') });
cpSync('public', 'dist/public', { recursive: true });
cpSync('bench/cannon.mjs', 'dist/bench/cannon.mjs');

function commit() {
  if (process.env.SVC_COMMIT) return process.env.SVC_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null; // a build outside a checkout (the Docker context has no .git): the commit is unknown
  }
}
const built = commit();
if (built !== null && !/^[0-9a-f]{40}$/.test(built)) throw new Error(`SVC_COMMIT: a full 40-character commit hash (got "${built}")`);
writeFileSync('dist/src/build-info.json', `${JSON.stringify({ commit: built })}\n`);
