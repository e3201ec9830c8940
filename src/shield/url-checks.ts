import { ApiError } from '../core/errors.js';
import { ipLiteral } from '../upstream/address-policy.js';
import { hostLabels, type LookalikeIndex, type NameMatch } from './lookalike.js';
import type { Action, Finding, Severity } from './schemas.js';

const SOURCE = 'svc:url-rules';
const DOMAIN = /^(?=.{1,253}$)([\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63}$/u;

/** Checks with no data type behind them in the catalog: always unknown, never passed. */
export const URL_UNKNOWN = ['phishing-reputation', 'domain-age'] as const;

const finding = (id: string, severity: Severity, title: string, evidence: Record<string, unknown>): Finding => ({
  id,
  severity,
  title,
  evidence,
  source: SOURCE,
});

/** The URL (or https://<domain>/) a url or domain target names; a 400 naming target.value otherwise. */
export function parseTarget(kind: 'url' | 'domain', value: string): URL {
  const raw = kind === 'domain' ? `https://${value.trim().replace(/\.$/, '')}/` : value.trim();
  const bad = () =>
    new ApiError(
      'validation_failed',
      `target.value must be ${kind === 'domain' ? 'a domain name such as example.com' : 'an absolute http(s) URL'}`,
      { field: 'target.value' },
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad();
  }
  if (!['http:', 'https:'].includes(url.protocol) || (kind === 'domain' && !DOMAIN.test(value.trim().replace(/\.$/, '')))) throw bad();
  return url;
}

const LOOKALIKE: Record<NameMatch['how'], { id: string; severity: Severity; title: string }> = {
  homoglyph: { id: 'lookalike_domain', severity: 'high', title: 'The domain imitates a known name with lookalike characters' },
  typo: { id: 'lookalike_domain', severity: 'high', title: 'The domain is one typo away from a known name' },
  contains: { id: 'brand_in_domain', severity: 'medium', title: 'The domain wraps a known name in other words' },
  exact: {
    id: 'names_known_entity',
    severity: 'info',
    title: 'The domain is a known name (svc holds no list of official domains: check it)',
  },
};

function lookalike(url: URL, names: LookalikeIndex): Finding[] {
  for (const label of hostLabels(url.hostname)) {
    const match = names.match(label);
    if (match) return [finding(LOOKALIKE[match.how].id, LOOKALIKE[match.how].severity, LOOKALIKE[match.how].title, { label, ...match })];
  }
  return [];
}

/** The URL rules svc computes itself: scheme, credentials, IP hosts, punycode, lookalike names of entities in the entity graph. */
export function urlFindings(url: URL, action: Action | undefined, names: LookalikeIndex): Finding[] {
  const findings: Finding[] = [];
  const host = url.hostname;
  const handsOverSecrets = action === 'sign' || action === 'approve';
  if (url.protocol === 'http:')
    findings.push(
      finding('insecure_scheme', handsOverSecrets ? 'high' : 'low', 'Plain http: the page can be altered in transit', { scheme: 'http' }),
    );
  if (url.username || url.password)
    findings.push(finding('credentials_in_url', 'high', 'The URL hides its real host behind user@', { userinfo: url.username }));
  if (ipLiteral(host)) findings.push(finding('ip_host', 'medium', 'The host is a bare IP address, not a name', { host }));
  if (host.split('.').some((l) => l.startsWith('xn--')))
    findings.push(
      finding('punycode_host', 'medium', 'The host uses punycode (non-Latin characters)', { host, unicode: hostLabels(host).join('.') }),
    );
  return [...findings, ...(ipLiteral(host) ? [] : lookalike(url, names))];
}
