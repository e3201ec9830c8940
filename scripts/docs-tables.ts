/**
 * Regenerates the upstream and data-type tables of docs/data-types.md from upstream/hosts.ts and the registry,
 * so the documentation cannot drift: `npm run docs:tables`. A test fails when the file is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { HOSTS, hostEnvName, hostSpec, keyHostOf, type HostSpec } from '../src/upstream/hosts.js';
import { registry } from '../src/sources/registry.js';
import { loadFixtures, type FixtureOrigin } from '../src/upstream/fixtures.js';

export const DATA_TYPES_DOC = new URL('../docs/data-types.md', import.meta.url);

function keyCell(spec: HostSpec): string {
  const notes = [
    spec.userAgent === 'identify' ? 'identifying User-Agent' : spec.userAgent === 'browser' ? 'browser User-Agent' : '',
  ].filter(Boolean);
  if (!spec.key) return notes.length ? `— (${notes.join(', ')})` : '—';
  const signup = spec.signupUrl ? `, [get one](${spec.signupUrl})` : '';
  return `${spec.key.required ? 'required' : 'optional'} (\`${spec.key.name}\` ${spec.key.in}${signup})`;
}

/** `paid plan` linked to the page that says so, with the provider's note. */
function termsCell(spec: HostSpec | undefined, withNote: boolean): string {
  if (!spec?.terms) return '—';
  const { commercial, url, note } = spec.terms;
  return `[${commercial}](${url})${withNote && note ? `: ${note}` : ''}`;
}

export function upstreamTable(): string {
  const rows = Object.entries(HOSTS).map(
    ([name, spec]) => `| \`${name}\` | ${spec.baseUrl} | ${keyCell(spec as HostSpec)} | ${termsCell(spec as HostSpec, true)} |`,
  );
  return ['| host | base URL | key | commercial use |', '|---|---|---|---|', ...rows].join('\n');
}

/** What the type's fixture follows: a recorded response, or a documentation page (marked when unofficial). */
function originCell(origin: FixtureOrigin | undefined): string {
  if (!origin) return '—';
  if (origin.kind === 'recorded') return `recorded ${origin.date}`;
  return `from docs: [${new URL(origin.url).host}](${origin.url})${origin.note ? ' (unofficial)' : ''}`;
}

function keysCell(hosts: string[]): string {
  const keys = [...new Set(hosts.map(keyHostOf))].flatMap((keyHost) => {
    const spec = hostSpec(keyHost);
    if (!spec?.key) return [];
    const signup = spec.signupUrl ? ` ([get one](${spec.signupUrl}))` : '';
    return [`\`${hostEnvName(keyHost, 'KEY')}\`${spec.key.required ? '' : ' (optional)'}${signup}`];
  });
  return keys.join(', ') || '—';
}

export function typeTable(): string {
  const origins = new Map(loadFixtures().map((f) => [f.type, f.origin]));
  const rows = registry.all().map((d) => {
    const hosts = Object.keys(d.upstreams);
    const chain = [...hosts, ...(d.curated ? ['curated data file'] : [])].join(' → ') || '—';
    const terms = hosts.map((h) => `${h}: ${termsCell(hostSpec(h), false)}`).join('; ') || '—';
    return `| \`${d.type}\` | ${chain} | ${keysCell(hosts)} | ${terms} | ${originCell(origins.get(d.type))} |`;
  });
  return ['| type | upstreams (primary → fallbacks) | keys | commercial use | fixture origin |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

/** The document with both tables replaced between their `<!-- name:start -->` / `<!-- name:end -->` markers. */
export function renderTables(text: string): string {
  const replace = (doc: string, marker: string, table: string) =>
    doc.replace(new RegExp(`(<!-- ${marker}:start -->\\n)[\\s\\S]*?(\\n<!-- ${marker}:end -->)`), `$1${table}$2`);
  return replace(replace(text, 'upstream-table', upstreamTable()), 'type-table', typeTable());
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(DATA_TYPES_DOC, renderTables(readFileSync(DATA_TYPES_DOC, 'utf8')));
}
