/**
 * How a webhook target's host name becomes addresses (target.ts checks every one of them).
 *
 * Public targets ask DNS itself, through c-ares (`dns.Resolver`), never the system resolver:
 * libuv runs `getaddrinfo` on its thread pool and lets DNS take at most two of its four threads,
 * each for as long as the name server takes. The name's DNS is the webhook owner's to run: a few
 * names whose server never answers, given to create_webhook or send_test_webhook, queued every
 * other lookup of the process behind them — measured with a silent server in /etc/resolv.conf,
 * 16 such lookups took 24 s, two at a time — so other webhooks' checks ran out their 10 s and
 * counted as their receivers' failures. c-ares waits on its sockets in the event loop: no
 * queue, no thread.
 *
 * Where private targets are allowed (local development, tests), the system resolver answers,
 * so `localhost` and names in /etc/hosts work as a developer expects.
 */
import { lookup, Resolver } from 'node:dns/promises';

export type ResolveHost = (host: string) => Promise<string[]>;

export interface DnsOptions {
  /** name servers as `host:port`; the system's (/etc/resolv.conf) when absent */
  servers?: string[];
  /** c-ares's wait for one answer, and its tries per server */
  timeoutMs?: number;
  tries?: number;
}

/** Every A and AAAA record of `host`, asked of DNS directly: IPv4 first. */
export function askDns(options: DnsOptions = {}): ResolveHost {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (options.servers) resolver.setServers(options.servers);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value : []),
      ...(v6.status === 'fulfilled' ? v6.value : []),
    ];
    if (found.length > 0) return found;
    throw v4.status === 'rejected' ? v4.reason : new Error(`${host} has no address`);
  };
}

/** The system resolver: the hosts file and `localhost` included; on libuv's pool. */
export const systemResolve: ResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

let publicDns: ResolveHost | undefined;

/** The resolver a target check uses when the caller brings none (TargetPolicy.resolve). */
export function defaultResolve(allowPrivate: boolean): ResolveHost {
  if (allowPrivate) return systemResolve;
  publicDns ??= askDns();
  return publicDns;
}
