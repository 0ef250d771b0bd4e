/**
 * Issue 16: "inputSchema of every tool validates the examples from the OpenAPI document."
 *
 * The OpenAPI documents of both services carry no examples (checked below: should one appear,
 * it is used as well), so the examples are generated from the document's own schemas with
 * json-schema-faker (seeded, so a failure repeats; a value the document's own schema rejects is
 * not an example and is generated again): each operation's path and query parameters
 * and its request body, once with every optional field filled and once with the required ones
 * only, arranged as tool arguments (a spread body's fields beside the parameters, or the whole
 * body as `body`). Each must validate against the tool's inputSchema (Ajv, JSON Schema 2020-12,
 * the dialect the tools declare). The tools come from the hosted servers over real HTTP.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { generate } from 'json-schema-faker';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { connectMcp } from './support.js';

type Json = Record<string, unknown>;

interface DocumentedOperation {
  operationId: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: Json; example?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: Json; example?: unknown }> };
}

function operationsOf(document: Json): DocumentedOperation[] {
  return Object.values(document.paths as Record<string, Record<string, DocumentedOperation>>)
    .flatMap((item) => Object.values(item))
    .filter((op) => op.operationId);
}

function examplesIn(document: Json): number {
  let count = 0;
  for (const op of operationsOf(document)) {
    for (const p of op.parameters ?? []) if (p.example !== undefined || p.schema?.examples) count++;
    const body = op.requestBody?.content?.['application/json'];
    if (body?.example !== undefined || body?.schema?.examples) count++;
  }
  return count;
}

const documentAjv = new Ajv2020({ strict: false });
addFormats.default(documentAjv);

/**
 * One example of a schema of the document (its component references resolve in it). The
 * generator cannot honour every regex (the slug's lookahead), so a value the document's own
 * schema rejects is not an example of it: the next seed is tried.
 */
async function exampleOf(
  schema: Json,
  document: Json,
  seed: number,
  optionals: boolean,
): Promise<unknown> {
  const rooted = { ...schema, components: document.components };
  const valid = documentAjv.compile(rooted);
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await generate(
      rooted as never,
      optionals
        ? { seed: seed * 1000 + attempt, alwaysFakeOptionals: true, maxItems: 3 }
        : { seed: seed * 1000 + attempt, optionalsProbability: 0, maxItems: 3 },
    );
    if (valid(value)) return value;
  }
  throw new Error(`no valid example of ${JSON.stringify(schema)} in 100 tries`);
}

async function argumentsFor(
  op: DocumentedOperation,
  tool: Tool,
  document: Json,
  seed: number,
  optionals: boolean,
): Promise<Json> {
  const args: Json = {};
  for (const p of op.parameters ?? []) {
    // a header (Idempotency-Key) reaches a tool through the call's `_meta`, not its arguments
    if (p.in === 'header' || (!p.required && !optionals)) continue;
    args[p.name] =
      p.example !== undefined ? p.example : await exampleOf(p.schema ?? {}, document, seed, true);
  }
  const body = op.requestBody?.content?.['application/json'];
  if (body?.schema) {
    const value = body.example ?? (await exampleOf(body.schema, document, seed, optionals));
    // spread unless the tool lacks one of the body's fields (then the body is one argument)
    const ref = typeof body.schema.$ref === 'string' ? body.schema.$ref.split('/').pop()! : '';
    const components = (document.components as { schemas: Record<string, Json> }).schemas;
    const fields = Object.keys(((ref ? components[ref] : body.schema)?.properties as Json) ?? {});
    const properties = tool.inputSchema.properties ?? {};
    const nested = fields.length ? !fields.every((f) => f in properties) : 'body' in properties;
    if (nested) args.body = value;
    else Object.assign(args, value as Json);
  }
  return args;
}

async function checkEveryTool(document: Json, tools: Tool[]): Promise<number> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  let checked = 0;
  for (const op of operationsOf(document)) {
    const tool = tools.find((t) => t.name === op.operationId);
    if (!tool) continue; // not a tool of this server (notes: the hosted exclusions)
    const validate = ajv.compile(tool.inputSchema);
    for (const seed of [1, 2, 3]) {
      for (const optionals of [true, false]) {
        const args = await argumentsFor(op, tool, document, seed, optionals);
        const ok = validate(args);
        expect(
          ok,
          `${tool.name} (seed ${seed}, ${optionals ? 'all fields' : 'required only'}): ${JSON.stringify(args).slice(0, 400)}\n${ajv.errorsText(validate.errors)}`,
        ).to.equal(true);
        checked++;
      }
    }
  }
  return checked;
}

describe("When every tool's inputSchema is checked against the OpenAPI document's examples", function () {
  this.timeout(120_000);

  describe('When the server is the feedback board', () => {
    let fb: FeedbackHarness;
    before(async () => {
      fb = await startFeedback();
    });
    after(() => fb?.stop());

    it('accepts the generated example arguments of every operation', async () => {
      const maker = await fb.createMaker('max@acme.io');
      const mcp = await connectMcp(`${fb.url}/mcp`, { token: maker.token });
      const { tools } = await mcp.client.listTools();
      await mcp.close();
      const document = (await (await fetch(`${fb.url}/v1/openapi.json`)).json()) as Json;
      expect(examplesIn(document), 'the document has no examples of its own').to.equal(0);
      const checked = await checkEveryTool(document, tools);
      expect(checked).to.equal(operationsOf(document).length * 6);
    });
  });

  describe('When the server is the hosted notes server', () => {
    let notes: NotesE2e;
    before(async () => {
      notes = await startNotesE2e();
    });
    after(() => notes?.stop());

    it('accepts the generated example arguments of every operation it offers', async () => {
      const user = await notes.signIn('ann@example.com');
      const mcp = await connectMcp(`${notes.base}/mcp`, { token: user.token });
      const { tools } = await mcp.client.listTools();
      await mcp.close();
      const document = (await (await fetch(`${notes.base}/docs/json`)).json()) as Json;
      expect(examplesIn(document), 'the document has no examples of its own').to.equal(0);
      const checked = await checkEveryTool(document, tools);
      expect(checked).to.equal(tools.length * 6);
    });
  });
});
