import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What an operator needs to name a build: the package version and the git commit it was built from. */
export interface BuildInfo {
  version: string;
  /** Full git commit hash; null when neither the build nor a checkout says. */
  commit: string | null;
}

/** Written next to the compiled code by `npm run build` (scripts/copy-assets.mjs); absent when running the sources. */
export const BUILD_INFO_FILE = 'build-info.json';
const PACKAGE_NAME = '@svc-data/server';
const COMMIT = /^[0-9a-f]{40}$/;

/** The package's root: the nearest folder up from this module whose package.json is the server's (sources, dist, installed). */
function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`${PACKAGE_NAME}: package.json not found above ${import.meta.url}`);
  }
}

/** The commit the build embedded, else the checkout's HEAD (running the sources), else null (an installed package built without git). */
function commitOf(root: string): string | null {
  const embedded = join(dirname(fileURLToPath(import.meta.url)), '..', BUILD_INFO_FILE);
  if (existsSync(embedded)) return (JSON.parse(readFileSync(embedded, 'utf8')) as { commit: string | null }).commit;
  if (!existsSync(join(root, '.git'))) return null;
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return COMMIT.test(head) ? head : null;
  } catch {
    return null;
  }
}

function readBuildInfo(): BuildInfo {
  const root = packageRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, commit: commitOf(root) };
}

/** Read once, at first use. */
export const buildInfo: BuildInfo = readBuildInfo();
