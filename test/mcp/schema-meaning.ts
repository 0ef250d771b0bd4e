/**
 * A tool schema reduced to what it accepts, so that the hosted notes server's schemas (zod to
 * JSON Schema) and the local server's (the same zod schemas through the OpenAPI document) can be
 * compared: the two spell some things differently and mean the same —
 *   `$ref` to `$defs` or the definition written in place;
 *   `anyOf: [X, {type: "null"}]` or X with `type: [X's type, "null"]`;
 *   a date-time's `format` with or without zod's `pattern`, an integer with or without the
 *     ±(2^53 − 1) bounds zod adds;
 *   key order;
 * and, in an output schema only, `additionalProperties: false` (an answer is the service's own:
 * the client checks it, it never builds one).
 */
type Json = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

export function schemaMeaning(schema: unknown, output = false): unknown {
  const defs = ((schema as Json | undefined)?.$defs ?? {}) as Record<string, unknown>;
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > 32) throw new Error('schema nests too deep (a recursive $ref?)');
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    if (value === null || typeof value !== 'object') return value;
    let o: Json = { ...(value as Json) };
    delete o.$defs;
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/$defs/')) {
      const { $ref, ...rest } = o;
      o = { ...(defs[($ref as string).slice('#/$defs/'.length)] as Json), ...rest };
    }
    const [first, second, ...more] = Array.isArray(o.anyOf) ? (o.anyOf as Json[]) : [];
    if (first && second?.type === 'null' && more.length === 0) {
      const { anyOf: _, ...rest } = o;
      const inner = walk(first, depth + 1) as Json;
      o = { ...inner, ...rest, type: [inner.type, 'null'].flat() };
    }
    if (o.format === 'date-time') delete o.pattern;
    if (o.minimum === -SAFE) delete o.minimum;
    if (o.maximum === SAFE) delete o.maximum;
    if (output && o.additionalProperties === false) delete o.additionalProperties;
    const sorted: Json = {};
    for (const key of Object.keys(o).sort()) sorted[key] = walk(o[key], depth + 1);
    return sorted;
  };
  return walk(schema, 0);
}
