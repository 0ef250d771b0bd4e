/**
 * What a refused request says. Spec 000 "Errors": an invalid request ("a value outside bounds or
 * enums") is 400 `invalid-argument`; DESIGN.md "HTTP": validation failures, unknown fields, out-of-
 * range numbers and bad enums all produce the service's error envelope. The message is the part a
 * client acts on: it names the field, what the field takes and what came instead, so the request
 * can be fixed without reading the schema (src/http/validation.ts).
 */
import type { Server } from 'node:http';
import { expect } from 'chai';
import { feedbackEnvelope } from '../../src/http/registry.js';
import { appOf, close, listen, newWorld, tinyHttp } from './support/tiny-service.js';

const MEMBER = { authorization: 'Bearer member' };
const JSON_ADMIN = { authorization: 'Bearer admin', 'content-type': 'application/json' };

describe('Validation messages over HTTP (feedback envelope)', () => {
  let server: Server;
  let base: string;

  beforeEach(async () => {
    ({ server, base } = await listen(appOf(tinyHttp(newWorld(), feedbackEnvelope()))));
  });
  afterEach(() => close(server));

  /** The `error` of a refusal, after checking it is spec 000's 400 `invalid-argument` envelope. */
  async function refusal(path: string, body?: unknown): Promise<string> {
    const res = await fetch(base + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? MEMBER : JSON_ADMIN,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { error: string; code: string };
    expect(res.status, JSON.stringify(json)).to.equal(400);
    expect(Object.keys(json).sort()).to.deep.equal(['code', 'error']);
    expect(json.code).to.equal('invalid-argument');
    return json.error;
  }
  const widgets = '/v1/shops/acme/widgets';

  describe('When a value has the wrong type', () => {
    it('names the field, the type it takes and the kind of value that came', async () => {
      const cases: [string, unknown, string][] = [
        [`${widgets}?pageSize=ten`, undefined, 'pageSize must be a number, not a string'],
        // 1e400 reads as Infinity: out of range, not "a fraction"
        [
          `${widgets}?pageSize=1e400`,
          undefined,
          'pageSize must be a number, not a number out of range',
        ],
        [
          `${widgets}?reverse=yes`,
          undefined,
          'reverse must be a boolean (true or false), not a string',
        ],
        [widgets, { name: null, color: 'red' }, 'name must be a string, not null'],
        // an array in a body is not a repeated query parameter
        [widgets, { name: ['n'], color: 'red' }, 'name must be a string, not an array'],
        [widgets, { name: 'n', color: ['red'] }, 'color must be one of: red, green, blue'],
        [widgets, { name: 'n', color: 'red', tags: 'a' }, 'tags must be an array, not a string'],
        [widgets, { name: 'n', color: 'red', tags: {} }, 'tags must be an array, not an object'],
      ];
      for (const [path, body, message] of cases) {
        expect(await refusal(path, body), `${path} ${JSON.stringify(body)}`).to.equal(message);
      }
    });
  });

  describe('When a value is out of its bounds', () => {
    it('names an empty text as empty and an element of a list by its index', async () => {
      expect(await refusal(widgets, { name: '', color: 'red' })).to.equal('name must not be empty');
      expect(
        await refusal(widgets, { name: 'n', color: 'red', tags: ['a', 'x'.repeat(11)] }),
      ).to.equal('tags[1] must be at most 10 characters long');
    });

    it('names at most three problems, each once, in the order of the fields', async () => {
      const body = { name: '', color: 'pink', tags: ['a', 'b', 'c', 'd'], owner: 'me' };
      expect(await refusal(widgets, body)).to.equal(
        'name must not be empty; color must be one of: red, green, blue; tags must have at most 3 entries',
      );
    });
  });

  describe('When the query string carries what the operation does not take', () => {
    // README "Limits": "An unknown field of a body or an unknown query parameter is refused
    // (`400`, naming what the operation takes)"
    it('refuses it also where the operation takes only text, naming what it takes', async () => {
      expect(await refusal(`${widgets}/search?q=bolt&qq=nut`)).to.equal(
        'unknown query parameter "qq"; it takes q',
      );
    });

    it('refuses an empty cursor instead of starting again at the first page', async () => {
      // spec 000 list_items: "`cursor` (string, min 1)"
      expect(await refusal(`${widgets}?cursor=`)).to.equal('cursor must not be empty');
    });

    it('tells a parameter given twice that it is taken once', async () => {
      expect(await refusal(`${widgets}?pageSize=1&pageSize=2`)).to.equal(
        'pageSize must be given only once',
      );
    });

    it('cuts a long unknown name to 64 characters instead of echoing it', async () => {
      // security audit: made-up names must not come back whole (as for unknown body fields)
      const error = await refusal(`${widgets}?${'k'.repeat(70)}=1`);
      expect(error).to.equal(
        `unknown query parameter "${'k'.repeat(64)}…"; it takes pageSize, color, cursor, reverse`,
      );
    });
  });
});
