import { readFileSync } from 'node:fs';

/** The release as package.json names it: what every place that states svc's version must say. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
