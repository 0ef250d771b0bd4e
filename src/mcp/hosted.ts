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
  resolveError,
  type ServiceHttp,
  type ServiceTypes,
} from '../http/registry.js';
import { type CallMeta, type ToolCatalog, unknownTool } from './server.js';
import { fromOperations } from './tool-source.js';
import { errorResult, type GeneratedTool, generateTools, successResult } from './tools.js';

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
  /** the catalog one MCP request of this caller works with */
  catalogFor(principal: S['principal'], correlationId: string): ToolCatalog;
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
    correlationId: string,
  ): Promise<CallToolResult> {
    const entry = byName.get(name);
    if (!entry) throw unknownTool(name);
    try {
      const raw = entry.generated.split(args);
      const result = await http.execute(name, raw, {
        correlationId,
        idempotencyKey: meta.idempotencyKey,
        ifMatch: meta.ifMatch,
        principal,
      });
      return successResult(entry.generated, {
        status: result.status ?? entry.op.successStatus,
        body: result.body,
        headers: result.headers,
      });
    } catch (error) {
      const resolved = resolveError(error);
      if (resolved.kind === 'internal') {
        logger.error('tool call failed', { correlationId, operationId: name, error });
      }
      const message =
        resolved.kind === 'internal'
          ? `internal error; quote correlation id ${correlationId} when reporting it`
          : resolved.message;
      return errorResult(envelope.body(resolved.kind, message), envelope.status(resolved.kind));
    }
  }

  return {
    tools,
    catalogFor(principal, correlationId) {
      return {
        list: (): Tool[] =>
          tools
            .filter((t) => options.shows?.(byName.get(t.tool.name)!.op, principal) ?? true)
            .map((t) => t.tool),
        call: (name, args, meta) => call(name, args, meta, principal, correlationId),
      };
    },
  };
}
