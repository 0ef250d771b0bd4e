/**
 * A refused credential on the MCP endpoint is an HTTP answer, not JSON-RPC: 401 with the
 * endpoint's `WWW-Authenticate` challenge (what an MCP client starts OAuth discovery from), 403
 * with what the error carries (`error="insufficient_scope"`), each with the service's error
 * envelope as body; a failure of the authentication itself is logged and answered 500.
 */
import type { Request, Response } from 'express';
import { type ErrorEnvelope, type HttpLogger, resolveError } from '../http/registry.js';
import { sendJson } from '../http/respond.js';

export interface CredentialRefusalOptions {
  /** WWW-Authenticate of a 401 (missing or refused credential) */
  challenge(req: Request, error: unknown): string;
  envelope: ErrorEnvelope;
  logger: HttpLogger;
}

export function refuseCredential(
  req: Request,
  res: Response,
  error: unknown,
  correlationId: string,
  options: CredentialRefusalOptions,
): void {
  const resolved = resolveError(error);
  if (resolved.kind === 'internal') {
    options.logger.error('MCP authentication failed', { correlationId, error });
  }
  for (const [name, value] of Object.entries(resolved.headers)) res.setHeader(name, value);
  if (resolved.kind === 'unauthenticated') {
    res.setHeader('WWW-Authenticate', options.challenge(req, error));
  }
  const message =
    resolved.kind === 'internal'
      ? `internal error; quote correlation id ${correlationId} when reporting it`
      : resolved.message;
  sendJson(
    res,
    options.envelope.status(resolved.kind),
    options.envelope.body(resolved.kind, message),
  );
}
