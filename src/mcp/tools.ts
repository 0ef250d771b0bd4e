/**
 * Tools generated from operations (tool-source.ts): named by the operation id, titled by its
 * summary, described by its description, its access rule and its route; input from
 * tool-input.ts; output from the success body's schema. What they say of REST's headers is said
 * in MCP's terms, descriptions and schemas alike (mcp-terms.ts).
 *
 * Annotations follow the method (MCP: hints, not guarantees):
 *   GET     readOnlyHint, idempotentHint
 *   POST    neither read-only nor idempotent; destructiveHint false (MCP: "only additive
 *           updates": it adds a reply, a submission, a device, or brings back a trashed note or
 *           merged items) unless the operation declares it replaces or removes what exists (a
 *           status, a whole tag set, duplicates folded away, a secret): true, as for PUT and
 *           PATCH, whose earlier values a history may keep too; idempotentHint when the
 *           operation declares its repeat changes nothing more
 *   PUT     destructiveHint (replaces the current values), idempotentHint
 *   PATCH   destructiveHint (overwrites the fields it names), idempotentHint
 *   DELETE  destructiveHint, idempotentHint
 * and openWorldHint false, as a tool works on the service's own data only — except where the
 * operation declares it sends to a receiver outside the service (a webhook's URL): true.
 *
 * A result carries the answer twice, as MCP asks: `structuredContent` (the JSON body, checked
 * by clients against outputSchema) and the same JSON as text. A failed operation is a result
 * with `isError: true` whose text is the service's error envelope (`{error, code}` or
 * `{error}`), its message in MCP's terms (mcp-terms.ts); it has no structuredContent, which
 * would have to match the success schema.
 */
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { RawJson } from '../../projections/shared/raw-json.js';
import type { HttpMethod, RawInput } from '../http/registry.js';
import { rewrap, unwrap } from './json-schema.js';
import { errorInMcpTerms, schemaInMcpTerms, toolDescription } from './mcp-terms.js';
import { toolInput } from './tool-input.js';
import type { JsonSchema, ToolSource } from './tool-source.js';

export interface GeneratedTool {
  tool: Tool;
  source: ToolSource;
  split(args: Record<string, unknown> | undefined): RawInput;
}

const ANNOTATIONS: Record<HttpMethod, Omit<ToolAnnotations, 'title'>> = {
  get: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  post: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  put: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  patch: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  delete: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/** MCP wants `type: object` at the root of an output schema; a union of objects gets it too. */
function outputSchemaOf(response: JsonSchema | undefined): JsonSchema | undefined {
  if (!response) return undefined;
  const { root, defs } = unwrap(response);
  if (root.type === 'object') return rewrap(root, defs);
  const variants = (root.anyOf ?? root.oneOf) as JsonSchema[] | undefined;
  const objects = variants?.every((v) => {
    const name = typeof v.$ref === 'string' ? v.$ref.split('/').pop() : undefined;
    return (name ? defs[name] : v)?.type === 'object';
  });
  return objects ? rewrap({ type: 'object', ...root }, defs) : undefined;
}

function describe(source: ToolSource, nestedBody: boolean): string {
  const route = `${source.method.toUpperCase()} ${source.path}`;
  const body = nestedBody
    ? ' The request body is the `body` argument.'
    : source.body
      ? ' Path parameters, query parameters and body fields are all top-level arguments.'
      : '';
  const description = source.description && toolDescription(source.description);
  return [source.summary, description, `Same as ${route}.${body}`].filter(Boolean).join('\n\n');
}

export function generateTool(source: ToolSource): GeneratedTool {
  const input = toolInput(source);
  const outputSchema = outputSchemaOf(source.response);
  const tool: Tool = {
    name: source.id,
    title: source.summary,
    description: describe(source, input.nestedBody),
    inputSchema: schemaInMcpTerms(input.schema) as Tool['inputSchema'],
    ...(outputSchema
      ? { outputSchema: schemaInMcpTerms(outputSchema) as Tool['outputSchema'] }
      : {}),
    annotations: {
      title: source.summary,
      ...ANNOTATIONS[source.method],
      ...(source.idempotent ? { idempotentHint: true } : {}),
      ...(source.destructive ? { destructiveHint: true } : {}),
      ...(source.openWorld ? { openWorldHint: true } : {}),
    },
  };
  return { tool, source, split: input.split };
}

export function generateTools(sources: readonly ToolSource[]): GeneratedTool[] {
  return sources.map(generateTool);
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The operation's answer as a tool result. */
export function successResult(generated: GeneratedTool, answer: Answer): CallToolResult {
  const value = answer.body instanceof RawJson ? answer.body.toJSON() : answer.body;
  const etag = Object.entries(answer.headers ?? {}).find(([k]) => k.toLowerCase() === 'etag')?.[1];
  const meta = etag ? { _meta: { etag } } : {};
  if (value === undefined) {
    return {
      content: [{ type: 'text', text: `${generated.tool.name}: done (no content)` }],
      ...meta,
    };
  }
  const structured =
    generated.tool.outputSchema &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
      ? { structuredContent: value as Record<string, unknown> }
      : {};
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...structured, ...meta };
}

/**
 * A refusal or failure of the operation, in the service's error envelope, its message naming what
 * the call controls (mcp-terms.ts); `_meta.status` is REST's status, and `_meta.retryAfter` the
 * seconds REST's Retry-After asks to wait.
 */
export function errorResult(
  envelope: Record<string, string>,
  status: number,
  retryAfter?: string | null,
): CallToolResult {
  const seconds = retryAfter ? Number(retryAfter) : Number.NaN;
  const body =
    typeof envelope.error === 'string'
      ? { ...envelope, error: errorInMcpTerms(envelope.error) }
      : envelope;
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    _meta: { status, ...(Number.isFinite(seconds) ? { retryAfter: seconds } : {}) },
  };
}
