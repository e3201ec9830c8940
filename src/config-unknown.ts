import { closest } from 'fastest-levenshtein';
import { EnvSchema } from './config-env.js';
import { HOSTS, hostEnvName } from './upstream/hosts.js';

/** Variables with svc's prefixes that are read outside the configuration schema. */
const READ_ELSEWHERE = [
  'SVC_WORKER_REPLACEMENT', // set by the primary process for the workers it forks (src/lifecycle/workers.ts)
  'SVC_WALLET_KEY', // the client CLI's, often exported in the same shell
  'SVC_PASS', // the client CLI's
  'SVC_COMMIT', // the image build's
];

const KNOWN = [
  ...Object.keys(EnvSchema.properties),
  ...Object.keys(HOSTS).flatMap((host) => [hostEnvName(host, 'URL'), hostEnvName(host, 'KEY')]),
  ...READ_ELSEWHERE,
];

/**
 * One warning per `SVC_*` or `UPSTREAM_*` variable svc does not read, naming the closest one it does: otherwise a typo
 * (`SVC_SHEDULER=0`) is silently ignored and the default stays in force.
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(KNOWN);
  return Object.keys(env)
    .filter((name) => /^(SVC|UPSTREAM)_/.test(name) && !known.has(name))
    .sort()
    .map((name) => `${name} is not a variable svc reads, so it is ignored; did you mean ${closest(name, KNOWN)}?`);
}
