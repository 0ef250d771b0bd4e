/**
 * The registry surface of the running feedback service: GET /v1/openapi.json validates as
 * OpenAPI 3.1 with a standard validator (@readme/openapi-parser), declares the bearer and OAuth2
 * schemes, documents each operation's access rule, and lists exactly the routes the app serves.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

describe('Feedback OpenAPI document (e2e)', () => {
  let fb: FeedbackHarness;
  let doc: any;

  before(async () => {
    fb = await startFeedback();
    const res = await fb.api().get('/v1/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });
  after(() => fb.stop());

  it('validates as OpenAPI 3.1, version 1.0.0', async () => {
    expect(doc.openapi).to.match(/^3\.1\./);
    expect(doc.info.version).to.equal('1.0.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
  });

  it('declares the Idempotency-Key header on every write and on no read', () => {
    // lifecycle.ts: every write reads the key (a retry returns the first result; the same key
    // with a different request answers 409), so a generated client must know of it
    let writes = 0;
    type Documented = { parameters?: { in: string; name: string }[]; responses: object };
    for (const [path, methods] of Object.entries(doc.paths as Record<string, object>)) {
      for (const [method, op] of Object.entries(methods as Record<string, Documented>)) {
        const header = (op.parameters ?? []).find(
          (p) => p.in === 'header' && p.name === 'idempotency-key',
        );
        if (method === 'get') expect(header, `${method} ${path}`).to.equal(undefined);
        else {
          writes++;
          expect(header, `${method} ${path}`).to.include({ required: false });
          expect(op.responses, `${method} ${path}`).to.have.property('409');
        }
      }
    }
    expect(writes).to.be.greaterThan(10);
  });

  it('lists exactly the routes the app serves (listRoutes equals the document paths)', () => {
    const served = fb
      .app()
      .http.listRoutes()
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m} ${path}`))
      .sort();
    expect(documented).to.deep.equal(served);
    for (const id of [
      'create_api_token',
      'list_api_tokens',
      'revoke_api_token',
      'list_connected_apps',
      'revoke_connected_app',
    ]) {
      expect(
        fb
          .app()
          .http.listRoutes()
          .map((r) => r.operationId),
      ).to.include(id);
    }
  });

  it('declares the bearer and OAuth2 schemes with the real endpoints', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
    const flow = schemes.oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).to.equal(`${fb.url}/oauth/authorize`);
    expect(flow.tokenUrl).to.equal(`${fb.url}/oauth/token`);
    expect(flow.scopes).to.have.property('service.public');
  });

  it("documents every bearer operation's access rule, admin routes included", () => {
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op?.security) continue;
        expect(op.description ?? '', op.operationId).to.match(/service\.public|admin|member/);
        expect(op.responses, op.operationId).to.have.property('401');
      }
    }
    const updateProduct = doc.paths['/v1/workspaces/{slug}/products/{key}'].patch;
    expect(updateProduct.description).to.include('Requires the workspace **admin** role');
  });

  it("declares every path parameter of the spec's Addressing table with the spec's own pattern", () => {
    // spec, Addressing: slug `^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){4,19}$`, key `^[A-Z]{3,5}$`,
    // itemKey `^[A-Z]{3,5}-[1-9]\d*$`, personId "string, min length 1"; and "the
    // machine-readable description is authoritative for request validation"
    const spec: Record<string, object> = {
      slug: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){4,19}$' },
      key: { type: 'string', pattern: '^[A-Z]{3,5}$' },
      itemKey: { type: 'string', pattern: '^[A-Z]{3,5}-[1-9]\\d*$' },
      personId: { type: 'string', minLength: 1 },
    };
    const seen = new Set<string>();
    type Param = { in: string; name: string; schema: object };
    for (const [path, methods] of Object.entries(doc.paths as Record<string, object>)) {
      // resolve_item declares "401, 403, 404 (no 400)": a malformed key there matches nothing
      if (path === '/v1/items/{itemKey}') continue;
      for (const op of Object.values(methods as Record<string, { parameters?: Param[] }>)) {
        for (const p of op.parameters ?? []) {
          if (p.in !== 'path' || !(p.name in spec)) continue;
          seen.add(p.name);
          expect(p.schema, p.name).to.deep.include(spec[p.name]!);
        }
      }
    }
    expect([...seen].sort()).to.deep.equal(Object.keys(spec).sort());
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await fetch(`${fb.url}/docs/`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.include('swagger');
  });
});
