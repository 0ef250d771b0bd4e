/**
 * One tool input from an operation's path parameters, query and body (src/mcp/tool-input.ts):
 * merged into one object, the clash rules, and a call's arguments split back.
 */
import { expect } from 'chai';
import { z } from 'zod';
import { InvalidArgument } from '../../commands/shared/errors.js';
import { ToolGenerationError, toolInput } from '../../src/mcp/tool-input.js';
import { fromOperations, type ToolSource } from '../../src/mcp/tool-source.js';
import { defineOperation } from '../../src/http/registry.js';

const source = (input: Partial<ToolSource>): ToolSource => ({
  id: 'some_operation',
  method: 'post',
  path: '/v1/things/{id}',
  summary: 'Some operation',
  bodyRequired: false,
  successStatus: 200,
  ...input,
});

const object = (properties: Record<string, object>, required: string[] = [], strict = false) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...(strict ? { additionalProperties: false } : {}),
});

describe('When path parameters, query and body become one tool input', () => {
  it('lists every field of the three side by side, required as each part requires it', () => {
    const input = toolInput(
      source({
        params: object({ id: { type: 'string' } }, ['id']),
        query: object({ dryRun: { type: 'boolean' } }),
        body: object({ name: { type: 'string' }, color: { type: 'integer' } }, ['name'], true),
        bodyRequired: true,
      }),
    );
    expect(input.nestedBody).to.equal(false);
    expect(Object.keys(input.schema.properties as object)).to.deep.equal([
      'id',
      'dryRun',
      'name',
      'color',
    ]);
    expect(input.schema.required).to.deep.equal(['id', 'name']);
    expect(input.schema.additionalProperties).to.equal(false);
    expect(input.split({ id: 'a', dryRun: true, name: 'n' })).to.deep.equal({
      params: { id: 'a' },
      query: { dryRun: true },
      body: { name: 'n' },
    });
  });

  it('hands unknown arguments to an open spread body, whose own schema takes or drops them as over REST', () => {
    const input = toolInput(source({ body: object({ name: { type: 'string' } }) }));
    expect(input.split({ name: 'n', extra: 1 }).body).to.deep.equal({ name: 'n', extra: 1 });
  });

  it('refuses an unknown argument beside a closed spread body, naming every argument the tool takes', () => {
    // the README audit: refused by the body's schema, the message named only the body's fields,
    // as if the path parameters were not arguments of the tool
    const input = toolInput(
      source({
        params: object({ id: { type: 'string' } }, ['id']),
        body: object({ name: { type: 'string' }, color: { type: 'string' } }, [], true),
      }),
    );
    expect(() => input.split({ id: 'a', name: 'n', colour: 'red' }))
      .to.throw(InvalidArgument)
      .with.property('message', 'unknown argument "colour"; some_operation takes id, name, color');
    // named, not echoed, as over REST: at most 10 of them
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    expect(() => input.split({ id: 'a', ...many }))
      .to.throw(InvalidArgument)
      .with.property('message')
      .that.matches(
        /^unknown arguments "k0", .*"k9" and 4990 more; some_operation takes id, name, color$/,
      );
  });

  it('sends no body when an optional body got no field', () => {
    const input = toolInput(source({ body: object({ name: { type: 'string' } }) }));
    expect(input.split({}).body).to.equal(undefined);
  });

  it('refuses an unknown argument of an operation without a body, naming it and what it takes', () => {
    const input = toolInput(
      source({ method: 'get', params: object({ id: { type: 'string' } }, ['id']) }),
    );
    expect(() => input.split({ id: 'a', page_size: 5 }))
      .to.throw(InvalidArgument)
      .with.property('message', 'unknown argument "page_size"; some_operation takes id');
  });

  describe('When a body field has the name of a parameter', () => {
    it('makes the whole body one argument, `body`, and keeps the parameters flat', () => {
      const input = toolInput(
        source({
          params: object({ id: { type: 'string' } }, ['id']),
          body: object({ id: { type: 'string' }, name: { type: 'string' } }, ['name']),
          bodyRequired: true,
        }),
      );
      expect(input.nestedBody).to.equal(true);
      expect(Object.keys(input.schema.properties as object)).to.deep.equal(['id', 'body']);
      expect(input.schema.required).to.deep.equal(['id', 'body']);
      expect(input.split({ id: 'a', body: { id: 'b', name: 'n' } })).to.deep.equal({
        params: { id: 'a' },
        query: {},
        body: { id: 'b', name: 'n' },
      });
    });
  });

  it('makes a body that is not a plain object one argument too', () => {
    const input = toolInput(source({ body: { type: 'array', items: { type: 'string' } } }));
    expect(input.nestedBody).to.equal(true);
    expect(input.split({ body: ['x'] }).body).to.deep.equal(['x']);
  });

  it('refuses, when the tools are generated, a path and a query parameter of the same name', () => {
    expect(() =>
      toolInput(
        source({
          params: object({ id: { type: 'string' } }, ['id']),
          query: object({ id: { type: 'string' } }),
        }),
      ),
    ).to.throw(ToolGenerationError, /"id" is both a path and a query parameter/);
  });

  it('refuses, when the tools are generated, an argument named constructor or prototype (calls naming one are refused)', () => {
    // src/mcp/tool-input.ts RESERVED_ARGUMENT_NAMES: message-check.ts refuses every call naming
    // one, so an operation taking one would be a tool nobody can call with it
    expect(() =>
      toolInput(source({ body: object({ constructor: { type: 'string' } }, [], true) })),
    ).to.throw(ToolGenerationError, /"constructor" cannot be a tool argument/);
    expect(() => toolInput(source({ query: object({ prototype: { type: 'string' } }) }))).to.throw(
      ToolGenerationError,
      /"prototype" cannot be a tool argument/,
    );
  });

  it('refuses an array for a query parameter of one value, and passes it to one whose schema takes arrays or says nothing', () => {
    const input = toolInput(
      source({
        method: 'get',
        query: {
          ...object({
            status: { $ref: '#/$defs/Status' },
            ids: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
            open: {},
          }),
          $defs: { Status: { type: 'string', enum: ['a', 'b'] } },
        },
      }),
    );
    expect(() => input.split({ status: ['a', 'b'] })).to.throw(
      InvalidArgument,
      'status must be one value, not an array',
    );
    expect(input.split({ ids: ['a'], open: ['b'] }).query).to.deep.equal({
      ids: ['a'],
      open: ['b'],
    });
  });

  it('inlines a named body schema (a bare $ref at the root) and keeps its definitions', () => {
    const Named = z
      .object({ title: z.string().min(1) })
      .strict()
      .meta({ id: 'ToolInputUnitBody' });
    const [generated] = fromOperations([
      defineOperation({
        id: 'create_thing',
        method: 'post',
        path: '/v1/things',
        summary: 'Create a thing',
        body: Named,
        response: z.object({ id: z.string() }),
        errors: [400],
        auth: 'none',
        handler: async () => ({ body: { id: 'x' } }),
      }),
    ]);
    const input = toolInput(generated!);
    expect(input.schema.type).to.equal('object');
    expect(input.schema.properties).to.have.keys('title');
    expect(input.schema.required).to.deep.equal(['title']);
    expect(input.schema.additionalProperties).to.equal(false);
  });
});
