import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_TYPES_DOC, renderTables } from '../../scripts/docs-tables.js';
import { HOSTS, hostEnvName } from '../../src/upstream/hosts.js';
import { registry } from '../../src/sources/registry.js';

const doc = readFileSync(DATA_TYPES_DOC, 'utf8');

describe('docs/data-types.md', () => {
  it('carries the upstream and data-type tables as generated from the code (npm run docs:tables)', () => {
    expect(renderTables(doc)).toBe(doc);
  });

  it('lists every host with its terms, and every type with its keys, signup links and terms', () => {
    for (const [host, spec] of Object.entries(HOSTS)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${host}\` |`))!;
      expect(row, host).toContain(`[${spec.terms.commercial}](${spec.terms.url})`);
    }
    const row = (type: string) => doc.split('\n').find((l) => l.startsWith(`| \`${type}\` |`))!;
    for (const d of registry.all()) expect(row(d.type), d.type).toBeDefined();
    expect(row('economic-indicator')).toContain(
      `\`${hostEnvName('fred', 'KEY')}\` ([get one](https://fredaccount.stlouisfed.org/apikeys))`,
    );
    expect(row('weather')).toContain('open-meteo: [paid plan](https://open-meteo.com/en/terms); met-no: [allowed]');
    expect(row('twitch-top')).toContain('`UPSTREAM_TWITCH_AUTH_KEY` ([get one](https://dev.twitch.tv/console/apps))');
  });

  it('a stale table is caught: changing a host’s terms changes the rendering', () => {
    const stale = doc.replace('[paid plan](https://open-meteo.com/en/terms)', '[allowed](https://open-meteo.com/en/terms)');
    expect(stale).not.toBe(doc);
    expect(renderTables(stale)).toBe(doc);
  });
});
