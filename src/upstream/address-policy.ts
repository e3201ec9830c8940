import ipaddr from 'ipaddr.js';

/** Hostnames that name cloud metadata services whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/**
 * True only for globally routable unicast addresses. IPv4-mapped IPv6 is unmapped first; loopback,
 * private, link-local (including 169.254.169.254), CGNAT, multicast, unspecified, broadcast,
 * reserved, IPv6 ULA (including fd00:ec2::254), link-local, NAT64, 6to4 and Teredo are refused.
 * ipaddr.js also reads decimal (2130706433), octal (0177.0.0.1), hex (0x7f.0.0.1) and short
 * (127.1) IPv4 spellings, so those cannot slip through.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** An IP literal in a URL host (brackets stripped), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : undefined;
}

export const isMetadataHost = (hostname: string) => METADATA_HOSTS.has(hostname.toLowerCase().replace(/\.$/, ''));
