/**
 * The MCP protocol revision a POST is sent under, and whether it may be a batch. JSON-RPC
 * batching came with revision 2025-03-26 ("Added support for JSON-RPC batching", PR #228) and
 * left with 2025-06-18 ("Remove support for JSON-RPC batching", PR #416), whose Streamable HTTP
 * transport says: "The body of the POST request MUST be a single JSON-RPC request, notification,
 * or response." The SDK's transport serves a batch whatever the revision, so a client of
 * 2025-06-18 or later got its batch served where the revision it speaks has none.
 *
 * The endpoint is stateless: the revision is what the POST itself says, as the SDK's transport
 * reads it too —
 *  - an `initialize` request's protocolVersion as the server negotiates it: the one asked for
 *    when supported, else the latest;
 *  - else the `MCP-Protocol-Version` header ("the client MUST include the MCP-Protocol-Version:
 *    <protocol-version> HTTP header on all subsequent requests");
 *  - else 2025-03-26 ("if the server does not receive an MCP-Protocol-Version header, and has no
 *    other way to identify the version […] the server SHOULD assume protocol version
 *    2025-03-26").
 * A header naming a revision the server does not support is the SDK's to refuse (400).
 *
 * Revisions before 2025-03-26 (2024-11-05, 2024-10-07) had no MCP word on batches, only JSON-RPC
 * 2.0's, which has them: their batches are served as before, bounded like any (batch-work.ts).
 */
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { MessageProblem } from './message-check.js';

/** The first revision without batches; revisions are dates, so they compare as strings. */
export const BATCHLESS_SINCE = '2025-06-18';

const supported = (version: unknown): version is string =>
  typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version);

/** The revision `batch` is sent under; undefined when its header names an unsupported one. */
export function revisionOf(
  batch: readonly unknown[],
  header: string | string[] | undefined,
): string | undefined {
  for (const message of batch) {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: unknown };
    if (method !== 'initialize') continue;
    const asked = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    return supported(asked) ? asked : LATEST_PROTOCOL_VERSION;
  }
  if (header === undefined) return DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  return supported(header) ? header : undefined;
}

/** A batch sent under a revision that has none: -32600, refused whole before anything runs. */
export function batchRevisionProblem(
  batch: readonly unknown[],
  header: string | string[] | undefined,
): MessageProblem | null {
  const revision = revisionOf(batch, header);
  if (revision === undefined || revision < BATCHLESS_SINCE) return null;
  return {
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: MCP protocol revision ${revision} has no JSON-RPC batches (removed in ${BATCHLESS_SINCE}): send each message in its own POST`,
    id: null,
  };
}
