/**
 * Where a webhook may send (issue 18, "No SSRF"). A target must be https — or http to a loopback
 * receiver, and only where private targets are allowed (local development, tests). Every address
 * the host resolves to must be a public unicast address: loopback, private (RFC 1918, unique
 * local), link-local, CGNAT, multicast, broadcast, unspecified, reserved and documentation ranges,
 * and the cloud metadata addresses (169.254.169.254, fd00:ec2::254, 100.100.100.200) are refused,
 * as are IPv6 forms that embed an IPv4 address (mapped, NAT64's 64:ff9b::/96, 6to4, Teredo's
 * server and client) unless the embedded address is itself public. The deprecated
 * IPv4-compatible range ::/96 (RFC 4291 §2.5.5.1) is refused whole: ipaddr.js calls `::7f00:1`
 * (`[::127.0.0.1]` once URL-parsed) plain unicast. So it does every other IPv6 address outside
 * 2000::/3 that it has no name for (`::1:7f00:1`, `::ff:1`, `4000::1`): IANA's IPv6 address space
 * registry has global unicast in 2000::/3 only and the rest "Reserved by IETF", refused too.
 * The check runs at creation and again before every attempt, and the attempt connects to the
 * address that was checked, so DNS rebinding cannot switch it.
 */
import ipaddr from 'ipaddr.js';
import { defaultResolve } from './dns.js';

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS */
  allowPrivate: boolean;
  /** every address of a host name (dns.ts `defaultResolve` when absent; tests plug in their own) */
  resolve?: (hostname: string) => Promise<string[]>;
  /** how long a name's addresses may take (RESOLVE_TIMEOUT_MS; tests shorten it) */
  resolveTimeoutMs?: number;
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
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

/** An IPv6 form that routes to IPv4 addresses, and the role each of them plays in it. */
interface Embedding {
  form: 'NAT64' | '6to4' | 'Teredo';
  inside: { role: string; address: ipaddr.IPv4 }[];
}

/**
 * The IPv4 addresses an IPv6 form routes to: NAT64's well-known prefix (RFC 6052) and 6to4
 * (RFC 3056) carry one, Teredo (RFC 4380) its server's and, inverted, its client's. Null for
 * any other address. (The local-use NAT64 prefix 64:ff9b:1::/48 has no fixed layout: refused.)
 */
function embeddedIPv4(address: ipaddr.IPv6): Embedding | null {
  const p = address.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const one = (form: Embedding['form'], inside: ipaddr.IPv4): Embedding => ({
    form,
    inside: [{ role: 'embedded IPv4', address: inside }],
  });
  if (address.match(NAT64)) return one('NAT64', v4(p[6]!, p[7]!));
  if (address.match(SIX_TO_FOUR)) return one('6to4', v4(p[1]!, p[2]!));
  if (address.match(TEREDO)) {
    return {
      form: 'Teredo',
      inside: [
        { role: 'server', address: v4(p[2]!, p[3]!) },
        { role: 'client', address: v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff) },
      ],
    };
  }
  return null;
}

/** The IPv6 form embedding an IPv4 address (not a mapped one, read as IPv4), or null. */
function embeddingOf(parsed: ipaddr.IPv4 | ipaddr.IPv6): Embedding | null {
  if (parsed.kind() !== 'ipv6' || (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return null;
  return embeddedIPv4(parsed as ipaddr.IPv6);
}

/** `public`, or the name of the range that makes the address unsafe. */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address);
  const embedding = embeddingOf(parsed);
  if (embedding) {
    const ranges = embedding.inside.map(({ address: v4 }) => addressRange(v4.toString()));
    return ranges.find((r) => r !== 'public') ?? 'public';
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (METADATA.has(parsed.toString())) return 'metadata';
  const range = parsed.range();
  // after ipaddr's own names (unspecified ::, loopback ::1, mapped, discard 100::/64, …): what it
  // leaves as unicast outside 2000::/3 is reserved space, ::/96 named for the attack it carries
  if (range === 'unicast' && parsed.kind() === 'ipv6') {
    if (parsed.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
    if (!parsed.match(GLOBAL_UNICAST)) return 'reservedByIetf';
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
  // a fragment is never sent: the URL kept is the one called (actions/webhooks.ts)
  url.hash = '';
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
    throw new RefusedTarget(`url points to ${unsafeKind(unsafe.address, unsafe.range)}: ${shown}`);
  }
  const address = addresses[0]!;
  return { url, address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 };
}

/**
 * How long the check waits for the host's addresses. The name's DNS is the webhook owner's to
 * run: a name server that never answers must not hold a create_webhook request, nor an attempt
 * (its place in the webhook's lane, and the worker's stop that waits for it) past this.
 */
export const RESOLVE_TIMEOUT_MS = 10_000;

async function resolveAll(host: string, policy: TargetPolicy): Promise<string[]> {
  const bound = policy.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RefusedTarget(`${host} did not resolve within ${bound / 1000} s`)),
      bound,
    );
  });
  const resolve = policy.resolve ?? defaultResolve(policy.allowPrivate);
  const addresses = async () => await resolve(host);
  try {
    return await Promise.race([addresses(), late]);
  } catch (error) {
    if (error instanceof RefusedTarget) throw error;
    throw new RefusedTarget(`${host} does not resolve`);
  } finally {
    clearTimeout(timer);
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
  reservedByIetf: 'IETF-reserved IPv6 (outside global unicast 2000::/3)',
  metadata: 'cloud metadata',
};

/** "an unspecified address"; an IPv4-embedding form says which of its addresses is refused */
function unsafeKind(address: string, range: string): string {
  const kind = withArticle(`${NAMES[range] ?? `non-public (${range})`} address`);
  // `[2001::1]` is a Teredo address whose server is 0.0.0.0: "an unspecified address" alone
  // reads as a mistake about an address that is plainly not ::
  const embedding = embeddingOf(ipaddr.parse(address));
  const culprit = embedding?.inside.find((v4) => addressRange(v4.address.toString()) === range);
  if (!embedding || !culprit) return kind;
  return `a ${embedding.form} address whose ${culprit.role} is ${kind} (${culprit.address})`;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
