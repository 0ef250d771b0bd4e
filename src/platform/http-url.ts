/**
 * `http://<host>:<port>` for a host as configured (HOST) or as a socket reports it: an IPv6
 * address takes brackets in a URL (RFC 3986 §3.2.2), so HOST=::1 gives `http://[::1]:3000`,
 * not `http://::1:3000`, which no URL parser reads (the start stopped on it, naming no key).
 */
export function httpUrl(host: string, port: number): string {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${bracketed}:${port}`;
}
