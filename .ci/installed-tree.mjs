// node .ci/installed-tree.mjs <dir>: every production package the shrinkwrap in <dir> pins is installed at its
// path with exactly that version (optional platform packages for other systems may be absent).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const dir = process.argv[2];
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const { packages } = readJson(join(dir, 'npm-shrinkwrap.json'));
const wrong = [];
let checked = 0;
for (const [path, entry] of Object.entries(packages)) {
  if (path === '' || entry.dev) continue;
  const manifest = join(dir, path, 'package.json');
  if (!existsSync(manifest)) {
    if (!entry.optional && !entry.devOptional) wrong.push(`${path}: missing (shrinkwrap pins ${entry.version})`);
    continue;
  }
  checked += 1;
  const installed = readJson(manifest).version;
  if (installed !== entry.version) wrong.push(`${path}: ${installed} installed, shrinkwrap pins ${entry.version}`);
}
if (wrong.length > 0) {
  process.stderr.write(`FAIL: the installed tree differs from npm-shrinkwrap.json:\n  ${wrong.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write(`installed tree: ${checked} production packages, each at the version npm-shrinkwrap.json pins\n`);
