/**
 * Where a webhook may send (issue 18, "No SSRF"). A target must be https — or http to a loopback
 * receiver, and only where private targets are allowed (local development, tests). Every address
 * the host resolves to must be a public unicast address: loopback, private (RFC 1918, unique
 * local), link-local, CGNAT, multicast, broadcast, unspecified, reserved and documentation ranges,
 * and the cloud metadata addresses (169.254.169.254, fd00:ec2::254, 100.100.100.200) are refused,
 * as are IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) unless the embedded
 * address is itself public. The deprecated IPv4-compatible range ::/96 (RFC 4291 §2.5.5.1) is
 * refused whole: ipaddr.js calls `::7f00:1` (`[::127.0.0.1]` once URL-parsed) plain unicast.
 * The check runs at creation and again before every attempt, and the attempt connects to the
 * address that was checked, so DNS rebinding cannot switch it.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS */
  allowPrivate: boolean;
  /** every address of a host name (tests plug in their own resolver) */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** The address an attempt connects to, and the names it presents (Host header, TLS SNI). */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class RefusedTarget extends Error {
  override readonly name = 'RefusedTarget';
}

const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192']);
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** `public`, or the name of the range that makes the address unsafe. */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (METADATA.has(parsed.toString())) return 'metadata';
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) {
    return 'ipv4Compatible';
  }
  return range === 'unicast' ? 'public' : range;
}

/** The URL's own checks (scheme, credentials); throws RefusedTarget with the reason. */
export function parseTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedTarget('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RefusedTarget('url must be https');
  }
  if (url.protocol === 'http:' && !policy.allowPrivate) {
    throw new RefusedTarget(
      'url must be https (http is only for loopback receivers in development)',
    );
  }
  if (url.username || url.password) {
    throw new RefusedTarget('url must not carry credentials; the signature authenticates us');
  }
  if (!url.hostname) throw new RefusedTarget('url has no host');
  return url;
}

/** Resolve the host and check every address; answers the one to connect to. */
export async function checkTarget(raw: string | URL, policy: TargetPolicy): Promise<CheckedTarget> {
  const url = typeof raw === 'string' ? parseTargetUrl(raw, policy) : raw;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr.isValid(host) ? [host] : await resolveAll(host, policy);
  if (addresses.length === 0) throw new RefusedTarget(`${host} does not resolve`);
  const ranges = addresses.map((address) => ({ address, range: addressRange(address) }));
  if (url.protocol === 'http:' && !ranges.every((r) => r.range === 'loopback')) {
    throw new RefusedTarget(
      'url must be https (http is only for loopback receivers in development)',
    );
  }
  const unsafe = ranges.find((r) => r.range !== 'public');
  if (unsafe && !policy.allowPrivate) {
    const shown = unsafe.address === host ? host : `${host} (${unsafe.address})`;
    const kind = describe(unsafe.range);
    const article = /^[aeiou]/i.test(kind) ? 'an' : 'a';
    throw new RefusedTarget(`url points to ${article} ${kind} address: ${shown}`);
  }
  const address = addresses[0]!;
  return { url, address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 };
}

async function resolveAll(host: string, policy: TargetPolicy): Promise<string[]> {
  try {
    if (policy.resolve) return await policy.resolve(host);
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  } catch {
    throw new RefusedTarget(`${host} does not resolve`);
  }
}

const NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'CGNAT',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
  ipv4Compatible: 'deprecated IPv4-compatible IPv6 (::/96)',
  metadata: 'cloud metadata',
};

function describe(range: string): string {
  return NAMES[range] ?? `non-public (${range})`;
}
