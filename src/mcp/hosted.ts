/**
 * The tools of a hosted MCP server: one per operation of the service's registry that the
 * service exposes there, run through the registry's own steps (`http.execute`: validation,
 * the service's authorize hook with its live membership, roles and scope rules, the handler,
 * read-your-writes) for a caller the endpoint authenticated exactly as the REST routes do.
 * Operations added to the registry later become tools without any change here.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type ErrorEnvelope,
  type HttpLogger,
  type Operation,
  reportFailure,
  resolveError,
  type ServiceHttp,
  type ServiceTypes,
} from '../http/registry.js';
import type { RequestIds } from '../http/respond.js';
import { type CallMeta, type ToolCatalog, unknownTool } from './server.js';
import { fromOperations } from './tool-source.js';
import { errorResult, type GeneratedTool, generateTools, successResult } from './tools.js';

/**
 * What an assistant is told of a call refused because its credential stopped working after its
 * POST began (a call of a batch after one that ran: http.ts `checkedForCalls`); the POST itself
 * was answered, so the client's re-authorisation starts only at its next request.
 */
export const CREDENTIAL_REFUSED =
  "this call did not run, and no call will with this credential. Tell the user their sign-in to this server has ended: the MCP client needs a new credential (a client that signed in with OAuth signs in again when its next request is answered 401; a personal API token must be replaced in the client's configuration). Then call the tool again";

export interface HostedToolsOptions<S extends ServiceTypes> {
  http: ServiceHttp<S>;
  /** which operations are tools of the hosted server at all (default: every one) */
  exposes?: (op: Operation<S>) => boolean;
  /** which of them a caller is shown (feedback: a `service.public` token sees two) */
  shows?: (op: Operation<S>, principal: S['principal']) => boolean;
  envelope: ErrorEnvelope;
  logger: HttpLogger;
}

export interface HostedTools<S extends ServiceTypes> {
  /** every tool of the hosted server, whoever asks */
  readonly tools: readonly GeneratedTool[];
  /**
   * the catalog one MCP request of this caller works with; `answered` hears the HTTP status of
   * each tool call's answer (its REST route's), for the access log and the metrics
   */
  catalogFor(
    principal: S['principal'],
    ids: RequestIds,
    answered?: (status: number) => void,
    /** the caller again, live: checked before each call (src/http/lifecycle.ts CORE_STEPS) */
    recheck?: () => Promise<S['principal']>,
  ): ToolCatalog;
}

export function hostedTools<S extends ServiceTypes>(
  options: HostedToolsOptions<S>,
): HostedTools<S> {
  const { http, envelope, logger } = options;
  const exposed = http.operations.filter((op) => options.exposes?.(op) ?? true);
  const tools = generateTools(fromOperations(exposed));
  const byName = new Map(tools.map((t, i) => [t.tool.name, { generated: t, op: exposed[i]! }]));

  async function call(
    name: string,
    args: Record<string, unknown> | undefined,
    meta: CallMeta,
    principal: S['principal'],
    ids: RequestIds,
    recheck: (() => Promise<S['principal']>) | undefined,
  ): Promise<{ status: number; result: CallToolResult }> {
    const { correlationId } = ids;
    const entry = byName.get(name);
    if (!entry) throw unknownTool(name);
    try {
      const raw = entry.generated.split(args);
      const answer = await http.execute(name, raw, {
        ...ids,
        idempotencyKey: meta.idempotencyKey,
        ifMatch: meta.ifMatch,
        principal,
        ...(recheck ? { recheck } : {}),
      });
      const status = answer.status ?? entry.op.successStatus;
      const result = successResult(entry.generated, {
        status,
        body: answer.body,
        headers: answer.headers,
      });
      return { status, result };
    } catch (error) {
      const resolved = resolveError(error);
      reportFailure(logger, error, resolved, { correlationId, operationId: name, via: 'mcp' });
      const message =
        resolved.kind === 'internal'
          ? `internal error; quote correlation id ${correlationId} when reporting it`
          : resolved.kind === 'unauthenticated'
            ? `${resolved.message}: ${CREDENTIAL_REFUSED}`
            : resolved.message;
      const status = envelope.status(resolved.kind);
      const retryAfter = resolved.headers['Retry-After'];
      const body = envelope.body(resolved.kind, message);
      return { status, result: errorResult(body, status, retryAfter) };
    }
  }

  return {
    tools,
    catalogFor(principal, ids, answered, recheck) {
      return {
        list: (): Tool[] =>
          tools
            .filter((t) => options.shows?.(byName.get(t.tool.name)!.op, principal) ?? true)
            .map((t) => t.tool),
        call: async (name, args, meta) => {
          const { status, result } = await call(name, args, meta, principal, ids, recheck);
          answered?.(status);
          return result;
        },
      };
    },
  };
}
