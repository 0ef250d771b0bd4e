/**
 * Small operations on the JSON Schemas (2020-12) that zod and the OpenAPI document produce:
 * named schemas live in `$defs` and are referenced as `#/$defs/<name>`, and a named schema at
 * the root comes out as a bare `$ref`, which MCP does not accept for a tool's input or output
 * (both must be `type: object` at the root).
 */
import type { JsonSchema } from './tool-source.js';

export const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface Unwrapped {
  /** the root schema, inline, without `$schema` and `$defs` */
  root: JsonSchema;
  defs: Record<string, JsonSchema>;
}

const LOCAL_REF = /^#\/\$defs\/(.+)$/;

/** Splits a schema into its inline root and its named definitions. */
export function unwrap(schema: JsonSchema): Unwrapped {
  const { $schema: _dialect, $defs, ...rest } = schema;
  const defs = { ...($defs as Record<string, JsonSchema> | undefined) };
  let root: JsonSchema = rest;
  // a named schema at the root: its definition, inline (it stays in defs for inner references)
  for (let depth = 0; depth < 5 && typeof root.$ref === 'string'; depth++) {
    const name = LOCAL_REF.exec(root.$ref)?.[1];
    const target = name === undefined ? undefined : defs[name];
    if (!target) break;
    const { $ref: _ref, ...siblings } = root;
    root = { ...target, ...siblings };
  }
  return { root, defs };
}

/** True for an object schema whose fields are listed (`properties`), with nothing conditional. */
export function isPlainObject(schema: JsonSchema): boolean {
  return (
    schema.type === 'object' &&
    typeof schema.properties === 'object' &&
    schema.properties !== null &&
    !('anyOf' in schema || 'oneOf' in schema || 'allOf' in schema || '$ref' in schema)
  );
}

export function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.properties as Record<string, JsonSchema> | undefined) ?? {};
}

export function requiredOf(schema: JsonSchema | undefined): string[] {
  return (schema?.required as string[] | undefined) ?? [];
}

/**
 * Root and definitions put back together as one self-contained schema, with only the
 * definitions it references: a named root that was inlined (unwrap) would otherwise stay behind
 * as an unused copy of the whole schema, tokens an assistant reads for nothing.
 */
export function rewrap(root: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  const used = referenced(root, defs);
  const kept = Object.fromEntries(Object.entries(defs).filter(([name]) => used.has(name)));
  return {
    $schema: DIALECT,
    ...root,
    ...(Object.keys(kept).length ? { $defs: kept } : {}),
  };
}

/** The names of the definitions `root` reaches through `#/$defs/…` references, transitively. */
function referenced(root: JsonSchema, defs: Record<string, JsonSchema>): Set<string> {
  const used = new Set<string>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const name =
          key === '$ref' && typeof inner === 'string' ? LOCAL_REF.exec(inner)?.[1] : null;
        if (name && !used.has(name) && defs[name]) {
          used.add(name);
          pending.push(defs[name]);
        } else pending.push(inner);
      }
    }
  }
  return used;
}
