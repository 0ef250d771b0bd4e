/**
 * Who may read the process's operational detail — `/metrics`, and the report behind `/readyz`:
 * loopback clients (the node's own scraper, an operator on the machine) unless the service sits
 * behind a proxy (TRUST_PROXY: then every request comes from the proxy's address), and anyone
 * sending `Authorization: Bearer <METRICS_TOKEN>`. The detail includes every projector's
 * checkpoint, the service's position in the event log: moved by every tenant's writes, it would
 * tell anyone polling it when other workspaces write.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export type OperatorCheck = (req: Request) => boolean;

export function operatorCheck(options: {
  token: string | undefined;
  behindProxy: boolean;
}): OperatorCheck {
  const { token, behindProxy } = options;
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return (req) => {
    if (!behindProxy && LOOPBACK.test(req.socket.remoteAddress ?? '')) return true;
    const given = Buffer.from(req.headers.authorization ?? '');
    return (
      expected !== undefined && given.length === expected.length && timingSafeEqual(given, expected)
    );
  };
}
