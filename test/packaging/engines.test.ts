import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Node versions svc supports, as the packages declare them. 22.0–22.11 are left out on purpose: much of the
 * ecosystem svc builds on (ESLint, the bundlers) needs 22.12+, and claiming them would be untested.
 */
const SUPPORTED = '^20.19.0 || >=22.12.0';
const OLDEST = ['20.19.0', '22.12.0'];

interface LockEntry {
  version?: string;
  dev?: boolean;
  os?: string[];
  engines?: { node?: string } | string[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');

/** Production packages that install on Linux (platform builds for other systems never reach this deployment). */
function productionPackages(): [string, LockEntry][] {
  return Object.entries(lock.packages).filter(
    ([path, entry]) => path.startsWith('node_modules/') && !entry.dev && (!entry.os || entry.os.includes('linux')),
  );
}

describe('Node versions', () => {
  it.each(['package.json', 'packages/client/package.json'])('%s declares the supported range', (path) => {
    expect(readJson<{ engines: { node: string } }>(path).engines.node).toBe(SUPPORTED);
  });

  it('every production dependency in the lock supports the oldest supported 20 and 22', () => {
    const unsupported = productionPackages().flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return OLDEST.filter((node) => range && !semver.satisfies(node, range)).map(
        (node) => `${path}@${entry.version} needs node ${range}, not ${node}`,
      );
    });
    expect(unsupported).toEqual([]);
  });

  it('every dependency is pinned to one version, so an install gets what the tests ran against', () => {
    const ranges = ['package.json', 'packages/client/package.json'].flatMap((path) => {
      const manifest = readJson<Record<string, Record<string, string> | undefined>>(path);
      return ['dependencies', 'devDependencies'].flatMap((section) =>
        Object.entries(manifest[section] ?? {})
          .filter(([, version]) => !semver.valid(version))
          .map(([name, version]) => `${path} ${section}: ${name}@${version}`),
      );
    });
    expect(ranges).toEqual([]);
  });
});
