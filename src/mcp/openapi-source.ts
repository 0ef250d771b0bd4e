/**
 * Tool sources read off an OpenAPI 3.1 document, for a client that knows a service only over
 * HTTP (the local notes MCP server). The document is the one the service's registry generates
 * from the same zod schemas the hosted tools are made of, so both servers generate the same
 * tools. Component references (`#/components/schemas/X`) become `#/$defs/X`, and each schema
 * carries the definitions it reaches.
 */
import type { HttpMethod } from '../http/registry.js';
import type { JsonSchema, ToolSource } from './tool-source.js';

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  'x-idempotent'?: boolean;
  'x-destructive'?: boolean;
  'x-open-world'?: boolean;
}

export interface OpenApiLike {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const COMPONENT_REF = '#/components/schemas/';

/** The value with component references renamed to `$defs`, and the names it references. */
function localize(value: unknown, found: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => localize(v, found));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)) {
      const name = inner.slice(COMPONENT_REF.length);
      found.add(name);
      out.$ref = `#/$defs/${name}`;
    } else {
      out[key] = localize(inner, found);
    }
  }
  return out;
}

function withDefinitions(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const names = new Set<string>();
  const root = localize(schema, names) as JsonSchema;
  const defs: Record<string, JsonSchema> = {};
  const pending = [...names];
  while (pending.length) {
    const name = pending.pop()!;
    if (defs[name] || !components[name]) continue;
    const reached = new Set<string>();
    defs[name] = localize(components[name], reached) as JsonSchema;
    for (const next of reached) if (!defs[next]) pending.push(next);
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

function parametersIn(
  where: 'path' | 'query',
  parameters: OpenApiParameter[],
  components: Record<string, JsonSchema>,
): JsonSchema | undefined {
  const own = parameters.filter((p) => p.in === where);
  if (own.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const p of own) {
    properties[p.name] = {
      ...(p.schema ?? {}),
      ...(p.description && !p.schema?.description ? { description: p.description } : {}),
    };
  }
  const required = own.filter((p) => p.required).map((p) => p.name);
  return withDefinitions(
    { type: 'object', properties, ...(required.length ? { required } : {}) },
    components,
  );
}

export function fromOpenApi(document: OpenApiLike): ToolSource[] {
  const components = document.components?.schemas ?? {};
  const sources: ToolSource[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const parameters = op.parameters ?? [];
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const success = Object.keys(op.responses ?? {})
        .filter((status) => /^2\d\d$/.test(status))
        .sort()[0];
      const responseSchema = success
        ? op.responses?.[success]?.content?.['application/json']?.schema
        : undefined;
      sources.push({
        id: op.operationId,
        method,
        path,
        summary: op.summary ?? op.operationId,
        description: op.description,
        params: parametersIn('path', parameters, components),
        query: parametersIn('query', parameters, components),
        body: bodySchema ? withDefinitions(bodySchema, components) : undefined,
        bodyRequired: bodySchema ? op.requestBody?.required === true : false,
        response: responseSchema ? withDefinitions(responseSchema, components) : undefined,
        successStatus: success ? Number(success) : 200,
        ...(op['x-idempotent'] === true ? { idempotent: true } : {}),
        ...(op['x-destructive'] === true ? { destructive: true } : {}),
        ...(op['x-open-world'] === true ? { openWorld: true } : {}),
      });
    }
  }
  return sources;
}
