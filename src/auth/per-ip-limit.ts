/**
 * One way to limit an endpoint per client IP: a sliding window kept in the store (src/limits), so
 * several API processes over one store share the count and no burst of twice the limit passes
 * across a clock boundary. Each endpoint says how its refusal reads (`refuse`): both the
 * registration and the authorization endpoint as an OAuth error, in the shape each endpoint
 * answers its other errors (JSON, or the error page at /oauth/authorize).
 */
import type { Request, RequestHandler, Response } from 'express';
import ipaddr from 'ipaddr.js';
import type { Limits } from '../limits/index.js';

/** socket address; with trustProxy, the right-most X-Forwarded-For entry (what our proxy saw) */
export function clientIp(req: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const last = list.at(-1);
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/** how many leading bits of an IPv6 address one client is taken to hold */
const IPV6_CLIENT_PREFIX = 64;

/**
 * What per-IP limits count a request against: the client's IPv4 address, or the /64 its IPv6
 * address lies in — one subscriber or host is routinely handed a whole /64 (RFC 6177), so counting
 * single addresses would let it rotate past any limit. An IPv4 address in IPv6 form (`::ffff:a.b.c.d`,
 * as a dual-stack socket reports it) counts as that IPv4 address, and one with a port as the address
 * alone. Anything unparsable (a garbled forwarded header) is counted as it reads.
 */
export function clientNetwork(req: Request, trustProxy: boolean): string {
  const ip = withoutPort(clientIp(req, trustProxy));
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_CLIENT_PREFIX}`);
  return `${prefix.toString()}/${IPV6_CLIENT_PREFIX}`;
}

/**
 * `a.b.c.d:port` or `[v6]:port`, as some proxies write their X-Forwarded-For entry (and RFC 7239
 * allows), is the address without its port: counted as it read, each of a client's source ports
 * was a client of its own, past every per-IP limit.
 */
function withoutPort(ip: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (v6) return v6[1] as string;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(ip);
  return v4 ? (v4[1] as string) : ip;
}

export interface PerIpFigures {
  max: number;
  windowSeconds: number;
}

export function perIpLimit(
  deps: PerIpFigures & {
    limits: Limits;
    /** keeps each service's and endpoint's counters apart */
    name: string;
    trustProxy: boolean;
    /** answers a request over the limit: 429, `Retry-After` and the endpoint's error shape */
    refuse(req: Request, res: Response, retryAfterSeconds: number): void;
  },
): RequestHandler {
  const perIp = deps.limits.limiter(deps.name, {
    kind: 'sliding-window',
    max: deps.max,
    windowSeconds: deps.windowSeconds,
  });
  return async (req, res, next) => {
    try {
      const verdict = await perIp.take(clientNetwork(req, deps.trustProxy));
      if (verdict.allowed) return next();
      res
        .status(429)
        .set('Retry-After', String(verdict.retryAfterSeconds))
        .set('Cache-Control', 'no-store');
      deps.refuse(req, res, verdict.retryAfterSeconds);
    } catch (error) {
      next(error);
    }
  };
}
