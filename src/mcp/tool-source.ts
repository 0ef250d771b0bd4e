/**
 * What a tool is generated from: one operation of a service's registry, its inputs and its
 * answer as JSON Schemas. The hosted servers read it off the registry's zod schemas
 * (`fromOperations`); the local notes server, a thin HTTP client, reads the same operations off
 * the OpenAPI document the registry generates (openapi-source.ts). Both feed tools.ts, so no
 * tool is written by hand.
 */
import { z } from 'zod';
import type { HttpMethod, Operation, ServiceTypes } from '../http/registry.js';

export type JsonSchema = { [keyword: string]: unknown };

export interface ToolSource {
  /** the operation id: also the tool name */
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/v1/notes/{id}` (the local server calls it) */
  path: string;
  summary: string;
  description?: string;
  /** object schemas of the path parameters and the query */
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  bodyRequired: boolean;
  /** the success body; absent for a 204 operation */
  response?: JsonSchema;
  successStatus: number;
  /** a POST whose repeat changes nothing more (operation.ts `idempotent`) */
  idempotent?: boolean;
  /** a POST that replaces or removes what exists (operation.ts `destructive`) */
  destructive?: boolean;
  /** sends to a receiver outside the service (operation.ts `openWorld`) */
  openWorld?: boolean;
}

/**
 * `io: 'input'` for what the caller sends (a field with a default is optional) and `'output'`
 * for the answer; anything zod cannot express (a transform) is left open rather than refused.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
}

export function fromOperations<S extends ServiceTypes>(
  operations: readonly Operation<S>[],
): ToolSource[] {
  return operations.map((op) => ({
    id: op.id,
    method: op.method,
    path: op.path,
    summary: op.summary,
    description: [op.description, op.extraDescription].filter(Boolean).join('\n\n') || undefined,
    params: op.params ? jsonSchemaOf(op.params, 'input') : undefined,
    query: op.query ? jsonSchemaOf(op.query, 'input') : undefined,
    body: op.body ? jsonSchemaOf(op.body, 'input') : undefined,
    bodyRequired: op.bodyRequired,
    response: op.response ? jsonSchemaOf(op.response, 'output') : undefined,
    successStatus: op.successStatus,
    ...(op.idempotent ? { idempotent: true } : {}),
    ...(op.destructive ? { destructive: true } : {}),
    ...(op.openWorld ? { openWorld: true } : {}),
  }));
}
