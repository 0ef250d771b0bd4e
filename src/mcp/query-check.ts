/**
 * A tool call's query arguments checked as the hosted server checks them, for a server that
 * sends them on as a query string (remote-call.ts). A query string carries text only: `null` became
 * no parameter at all, and `5`, `true` or `{}` became the text "5", "true", "[object]", which the
 * service then took or refused as text — so the local notes server answered `limit: null` with a
 * whole page and `q: 5` with a search for "5", where the hosted server, which validates the typed
 * value, answers 400 "limit must be a number, not null". Here the typed value goes through what
 * the hosted server runs (the query coercion of a string, then the schema, then the same words),
 * with the schema the service's OpenAPI document gives; a value it passes is sent as before.
 */
import { z } from 'zod';
import type { ObjectSchema } from '../http/operation.js';
import { describeIssues, queryCoercer } from '../http/validation.js';
import type { JsonSchema } from './tool-source.js';

export type QueryCheck = (query: Record<string, unknown>) => string | undefined;

/** The check for an operation's query schema; none when the schema is one zod cannot read. */
export function queryCheck(schema: JsonSchema | undefined): QueryCheck | undefined {
  if (!schema) return undefined;
  let zod: z.ZodType;
  try {
    zod = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return undefined;
  }
  if (!(zod instanceof z.ZodObject)) return undefined;
  const object = zod as ObjectSchema;
  const coerce = queryCoercer(object);
  return (query) => {
    const input = coerce(query);
    const parsed = object.safeParse(input);
    return parsed.success ? undefined : describeIssues(parsed.error, input, 'query');
  };
}
