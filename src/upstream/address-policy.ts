import ipaddr from 'ipaddr.js';

/** Hostnames that name cloud metadata services whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/**
 * IPv6 prefixes that carry an IPv4 address. Each is refused whatever IPv4 address it carries: a
 * host or a translator on the way may unwrap it to a private one (`[::127.0.0.1]` is `::7f00:1`).
 */
const IPV4_IN_IPV6 = [
  ['::ffff:0:0/96', 'IPv4-mapped IPv6 (::ffff:0:0/96)'],
  ['::ffff:0:0:0/96', 'IPv4-translated IPv6 (::ffff:0:0:0/96)'],
  ['::/96', 'IPv4-compatible IPv6 (::/96)'],
  ['64:ff9b::/96', 'NAT64 (64:ff9b::/96)'],
  ['64:ff9b:1::/48', 'local NAT64 (64:ff9b:1::/48)'],
  ['2002::/16', '6to4 (2002::/16)'],
  ['2001::/32', 'Teredo (2001::/32)'],
] as const;
const IPV4_IN_IPV6_RANGES = IPV4_IN_IPV6.map(([cidr, name]) => [ipaddr.IPv6.parseCIDR(cidr), name] as const);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** ipaddr.js range names, as a refusal says them. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique local IPv6 (fc00::/7)',
  deprecatedSiteLocal: 'site-local IPv6 (fec0::/10)',
};

/**
 * Why an address must not be fetched, or undefined for a globally routable unicast one. Refused:
 * loopback, private, link-local (169.254.169.254 included), carrier-grade NAT, multicast,
 * unspecified, broadcast, reserved, IPv6 ULA (fd00:ec2::254 included), every IPv4-in-IPv6 form, and
 * any IPv6 outside global unicast 2000::/3. ipaddr.js reads decimal (2130706433), octal
 * (0177.0.0.1), hex (0x7f.0.0.1) and short (127.1) IPv4 spellings, so those cannot slip through.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv4') return range === 'unicast' ? undefined : `${RANGE_NAMES[range] ?? range} address`;
  if (range === 'loopback' || range === 'unspecified') return `${range} address`;
  const v6 = parsed as ipaddr.IPv6;
  const embedding = IPV4_IN_IPV6_RANGES.find(([cidr]) => v6.match(cidr));
  if (embedding) return `${embedding[1]} address`;
  if (range !== 'unicast') return `${RANGE_NAMES[range] ?? range} address`;
  return v6.match(GLOBAL_UNICAST_V6) ? undefined : 'IPv6 address outside global unicast (2000::/3)';
}

export const isPublicAddress = (address: string): boolean => addressRefusal(address) === undefined;

/** An IP literal in a URL host (brackets stripped), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : undefined;
}

export const isMetadataHost = (hostname: string) => METADATA_HOSTS.has(hostname.toLowerCase().replace(/\.$/, ''));
