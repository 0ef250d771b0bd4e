import type { Server } from 'node:http';
import { compileErrors, validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import { z } from 'zod';
import {
  defineOperation,
  feedbackEnvelope,
  RegistryError,
  createServiceHttp,
} from '../../src/http/registry.js';
import {
  appOf,
  close,
  listen,
  newWorld,
  tinyHttp,
  tinyOperations,
} from './support/tiny-service.js';

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

describe('OpenAPI document and /docs generated from the registry', () => {
  let server: Server;
  let base: string;
  let listRoutes: () => { method: string; path: string; operationId: string }[];

  before(async () => {
    const http = tinyHttp(newWorld(), feedbackEnvelope());
    listRoutes = http.listRoutes;
    ({ server, base } = await listen(appOf(http)));
  });
  after(() => close(server));

  async function fetchDoc(): Promise<Doc> {
    const res = await fetch(`${base}/v1/openapi.json`);
    expect(res.status).to.equal(200);
    return (await res.json()) as Doc;
  }

  describe('When the document is fetched', () => {
    // spec 000 "Versioning": "{base_url}/v1/openapi.json ... declares version 1.0.0 and OpenAPI 3.1."
    it('validates as OpenAPI 3.1 with version 1.0.0', async () => {
      const doc = await fetchDoc();
      expect(doc.openapi).to.equal('3.1.0');
      expect(doc.info.version).to.equal('1.0.0');
      const result = await validate(structuredClone(doc) as never);
      expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
    });

    it('lists exactly the routes the app serves, each with its operation id', async () => {
      const doc = await fetchDoc();
      const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(
          ([method, op]) => `${method} ${path} ${String(op.operationId)}`,
        ),
      );
      const served = listRoutes().map((r) => `${r.method} ${r.path} ${r.operationId}`);
      expect(documented.sort()).to.deep.equal(served.sort());
      expect(served).to.have.length(7);
    });

    it('carries bounds, enums, strictness, the envelope on declared statuses and the security scheme', async () => {
      const doc = await fetchDoc();
      const list = doc.paths['/v1/shops/{shop}/widgets']!.get as {
        parameters: {
          name: string;
          in: string;
          required?: boolean;
          schema: Record<string, unknown>;
        }[];
        responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
        security: unknown;
      };
      const pageSize = list.parameters.find((p) => p.name === 'pageSize')!;
      expect(pageSize.in).to.equal('query');
      expect(pageSize.schema).to.include({
        type: 'integer',
        minimum: 1,
        maximum: 200,
        default: 50,
      });
      expect(list.parameters.find((p) => p.name === 'color')!.schema.enum).to.deep.equal([
        'red',
        'green',
        'blue',
      ]);
      expect(list.parameters.find((p) => p.name === 'shop')).to.include({
        in: 'path',
        required: true,
      });
      expect(Object.keys(list.responses).sort()).to.deep.equal(['200', '400', '401', '403', '404']);
      for (const status of ['400', '401', '403', '404']) {
        expect(list.responses[status]!.content!['application/json']!.schema.$ref).to.equal(
          '#/components/schemas/Error',
        );
      }
      expect(list.security).to.deep.equal([{ bearerAuth: [] }]);
      expect(doc.components.securitySchemes.bearerAuth).to.deep.equal({
        type: 'http',
        scheme: 'bearer',
      });
      expect(doc.components.schemas.Error).to.deep.include({
        additionalProperties: false,
        required: ['error', 'code'],
      });

      const create = doc.paths['/v1/shops/{shop}/widgets']!.post as {
        requestBody: {
          required: boolean;
          content: Record<string, { schema: Record<string, unknown> }>;
        };
        responses: Record<string, unknown>;
      };
      expect(create.requestBody.required).to.equal(true);
      expect(create.requestBody.content['application/json']!.schema.additionalProperties).to.equal(
        false,
      );
      expect(create.responses).to.have.property('201');

      const remove = doc.paths['/v1/shops/{shop}']!.delete as {
        description: string;
        responses: Record<string, { content?: unknown }>;
      };
      expect(remove.description).to.contain('Requires the admin role.');
      expect(remove.responses['204']!.content).to.equal(undefined);
      expect(doc.paths['/v1/explode']!.get!.security).to.deep.equal([]);
    });

    // DX audit: no response header was declared, so generated clients exposed no ETag, Location
    // or Retry-After, and a conditional GET's 304 was not in the document
    it('declares the headers answers carry: ETag and 304 on a versioned resource, Retry-After, WWW-Authenticate', async () => {
      const doc = await fetchDoc();
      type Op = {
        parameters?: { name: string; in: string }[];
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
      const get = doc.paths['/v1/shops/{shop}/widgets/{id}']!.get as Op;
      expect(Object.keys(get.responses['200']!.headers ?? {})).to.deep.equal(['ETag']);
      expect(Object.keys(get.responses['304']!.headers ?? {})).to.deep.equal(['ETag']);
      expect(get.parameters!.find((p) => p.name === 'if-none-match')?.in).to.equal('header');
      expect(Object.keys(get.responses['401']!.headers ?? {})).to.deep.equal(['WWW-Authenticate']);
      const list = doc.paths['/v1/shops/{shop}/widgets']!.get as Op;
      expect(list.responses['304']).to.equal(undefined);
      expect(list.responses['200']!.headers).to.equal(undefined);
      const create = doc.paths['/v1/shops/{shop}/widgets']!.post as Op;
      expect(Object.keys(create.responses['503']!.headers ?? {})).to.deep.equal(['Retry-After']);
      expect(create.parameters!.map((p) => p.name)).to.include('idempotency-key');
    });
  });

  describe('When /docs is opened without network access', () => {
    it('serves the HTML page and its scripts from the package, pointing at the JSON', async () => {
      for (const path of ['/docs', '/docs/']) {
        const page = await fetch(base + path);
        expect(page.status).to.equal(200);
        expect(page.headers.get('content-type')).to.match(/^text\/html/);
        const html = await page.text();
        expect(html).not.to.match(/(src|href)=["']?(https?:)?\/\//i);
        expect(html).to.contain('src="/docs/swagger-ui-bundle.js"');
      }
      const bundle = await fetch(`${base}/docs/swagger-ui-bundle.js`);
      expect(bundle.status).to.equal(200);
      expect(bundle.headers.get('content-type')).to.match(/javascript/);
      expect((await bundle.text()).length).to.be.greaterThan(100_000);
      const init = await (await fetch(`${base}/docs/swagger-ui-init.js`)).text();
      expect(init).to.contain('"swaggerUrl": "/v1/openapi.json"');
    });
  });

  describe('When the registry is inconsistent', () => {
    it('refuses to build: path parameters that differ from the params schema, or duplicate ids', () => {
      const base = {
        method: 'get',
        summary: 's',
        response: z.object({}),
        errors: [],
        auth: 'none',
        handler: async () => ({ body: {} }),
      } as const;
      const options = {
        title: 't',
        version: '1.0.0',
        envelope: feedbackEnvelope(),
        authenticate: async () => ({ name: 'n', admin: false }),
        openapiPath: '/openapi.json',
      };
      const mismatch = defineOperation({
        ...base,
        id: 'a',
        path: '/x/{id}',
        params: z.object({ key: z.string() }),
      });
      expect(() => createServiceHttp({ ...options, operations: [mismatch] })).to.throw(
        RegistryError,
        /differ/,
      );
      const ops = tinyOperations(newWorld());
      expect(() => createServiceHttp({ ...options, operations: [...ops, ops[0]!] })).to.throw(
        RegistryError,
        /declared twice/,
      );
    });
  });
});
