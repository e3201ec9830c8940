import Type from 'typebox';
import { Gauge, type Registry } from 'prom-client';
import { buildInfo } from '../core/build-info.js';
import type { Store } from '../store/db.js';

/** The fields that name the running build, in /healthz and /api/v1/status alike. */
export const BuildFields = {
  version: Type.String({ description: 'the package version (semver; CHANGELOG.md lists what each one changed)' }),
  commit: Type.Union([Type.String(), Type.Null()], { description: 'the git commit it was built from; null when unknown' }),
  migrations: Type.Array(Type.String(), { description: 'the database migrations applied, in order: the last is the schema version' }),
};

export const buildFields = (store: Pick<Store, 'migrations'>) => ({ ...buildInfo, migrations: store.migrations });

/** `svc_build_info{version,commit} 1`: the build each instance runs, for a dashboard to show a rollout. */
export function registerBuildInfoMetric(registry: Registry): void {
  const gauge = new Gauge({
    name: 'svc_build_info',
    help: 'Always 1; the labels name the build: package version and git commit ("unknown" when not known)',
    labelNames: ['version', 'commit'] as const,
    registers: [registry],
  });
  gauge.set({ version: buildInfo.version, commit: buildInfo.commit ?? 'unknown' }, 1);
}

/** One log line per migration this start applied, so an upgrade's log says what it changed in the database. */
export function logMigrations(store: Pick<Store, 'migrated'>, log: { info(o: object, m: string): void }): void {
  for (const name of store.migrated) log.info({ migration: name }, `migration ${name} applied`);
}
