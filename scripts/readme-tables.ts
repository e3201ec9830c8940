/**
 * Regenerates README's upstream and data-type tables from upstream/hosts.ts and the registry, so
 * the documentation cannot drift: `npm run docs:tables`. A test fails when README is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { HOSTS, hostEnvName, type HostSpec } from '../src/upstream/hosts.js';
import { registry } from '../src/sources/registry.js';
import { loadFixtures, type FixtureOrigin } from '../src/demo/simulator.js';

const README = new URL('../README.md', import.meta.url);

function keyCell(spec: HostSpec): string {
  const notes = [
    spec.userAgent === 'identify' ? 'identifying User-Agent' : spec.userAgent === 'browser' ? 'browser User-Agent' : '',
  ].filter(Boolean);
  if (!spec.key) return notes.length ? `— (${notes.join(', ')})` : '—';
  return `${spec.key.required ? 'required' : 'optional'} (\`${spec.key.name}\` ${spec.key.in})`;
}

export function upstreamTable(): string {
  const rows = Object.entries(HOSTS).map(([name, spec]) => `| \`${name}\` | ${spec.baseUrl} | ${keyCell(spec as HostSpec)} |`);
  return ['| host | base URL | key |', '|---|---|---|', ...rows].join('\n');
}

/** What the type's fixture follows: a recorded response, or a documentation page (marked when unofficial). */
function originCell(origin: FixtureOrigin | undefined): string {
  if (!origin) return '—';
  if (origin.kind === 'recorded') return `recorded ${origin.date}`;
  return `from docs: [${new URL(origin.url).host}](${origin.url})${origin.note ? ' (unofficial)' : ''}`;
}

export function typeTable(): string {
  const origins = new Map(loadFixtures().map((f) => [f.type, f.origin]));
  const rows = registry.all().map((d) => {
    const hosts = Object.keys(d.upstreams);
    const chain = [...hosts, ...(d.curated ? ['curated data file'] : [])].join(' → ') || '—';
    const keys = hosts.flatMap((h) => {
      const keyHost = (HOSTS as Record<string, HostSpec>)[h]?.tokenFrom ?? h;
      const key = (HOSTS as Record<string, HostSpec>)[keyHost]?.key;
      return key ? [`\`${hostEnvName(keyHost, 'KEY')}\`${key.required ? '' : ' (optional)'}`] : [];
    });
    return `| \`${d.type}\` | ${chain} | ${keys.join(', ') || '—'} | ${originCell(origins.get(d.type))} |`;
  });
  return ['| type | upstreams (primary → fallbacks) | keys | fixture origin |', '|---|---|---|---|', ...rows].join('\n');
}

export function renderReadme(text: string): string {
  const replace = (doc: string, marker: string, table: string) =>
    doc.replace(new RegExp(`(<!-- ${marker}:start -->\\n)[\\s\\S]*?(\\n<!-- ${marker}:end -->)`), `$1${table}$2`);
  return replace(replace(text, 'upstream-table', upstreamTable()), 'type-table', typeTable());
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(README, renderReadme(readFileSync(README, 'utf8')));
}
