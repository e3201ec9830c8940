// Writes npm-shrinkwrap.json for the published server package from the repository's package-lock.json, so an
// install of the tarball gets exactly the dependency tree the tests ran against (transitive versions included).
// The repository lock also holds the workspace (the client SDK), which is not part of the published package; the
// dev tools stay (flagged dev, so `npm ci --omit=dev` skips them) because npm ci needs the lock to match
// package.json. `prepack` writes the file and `postpack` removes it again: while it exists, npm in this checkout
// would read it instead of package-lock.json.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const SHRINKWRAP = 'npm-shrinkwrap.json';

if (process.argv[2] === '--remove') {
  rmSync(SHRINKWRAP, { force: true });
} else {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
  const { workspaces, ...root } = lock.packages[''];
  const published = Object.entries(lock.packages).filter(
    ([path, entry]) => path.startsWith('node_modules/') && !entry.link && !path.startsWith('node_modules/@svc-data/'),
  );
  const shrinkwrap = { ...lock, packages: { '': root, ...Object.fromEntries(published) } };
  writeFileSync(SHRINKWRAP, `${JSON.stringify(shrinkwrap, null, 2)}\n`);
  process.stdout.write(`${SHRINKWRAP}: ${published.length} packages pinned (the workspace left out)\n`);
}
