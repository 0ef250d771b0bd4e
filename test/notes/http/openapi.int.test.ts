/**
 * The notes service's OpenAPI 3.1 document and docs page as served: valid 3.1, exactly the routes
 * the app serves, every one of them behind the bearer check, and /docs working offline.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import { client, type NotesE2e, startNotesE2e, type Json } from '../e2e/support.js';

const OPERATION_IDS = [
  'list_notes',
  'create_note',
  'search_notes',
  'get_note',
  'update_note',
  'delete_note',
  'restore_note',
  'get_note_history',
  'add_note_tag',
  'remove_note_tag',
  'list_tags',
  'create_tag',
  'get_tag',
  'update_tag',
  'delete_tag',
  'list_devices',
  'register_device',
  'get_device',
  'update_device',
  'sync_changes',
];

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, Json> }>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
};

describe('When the notes OpenAPI document is fetched from /docs/json', function () {
  this.timeout(30_000);
  let e: NotesE2e;
  let doc: Doc;
  before(async () => {
    e = await startNotesE2e();
    const res = await fetch(`${e.base}/docs/json`);
    expect(res.status).to.equal(200);
    doc = (await res.json()) as Doc;
  });
  after(async () => e.stop());

  it('validates as OpenAPI 3.1', async () => {
    // spec: "machine-readable OpenAPI 3.1 description at /docs/json"
    expect(doc.openapi).to.equal('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
  });

  it('lists exactly the routes the app serves', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method} ${path} ${op.operationId}`),
    );
    const served = e
      .app()
      .http.listRoutes()
      .map((r) => `${r.method} ${r.path} ${r.operationId}`);
    expect(documented.sort()).to.deep.equal(served.sort());
    expect(served.map((s) => s.split(' ')[2]).sort()).to.deep.equal([...OPERATION_IDS].sort());
  });

  it('serves every documented route behind the bearer check (401 without a token)', async () => {
    const anonymous = client(e.base);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const url = path.replace('{id}', 'x1').replace('{tagId}', 't1');
        const res = await anonymous(method.toUpperCase(), url);
        expect(res.status, `${method} ${path}`).to.equal(401);
        expect(res.headers.get('www-authenticate'), path).to.match(/^Bearer resource_metadata=/);
      }
    }
  });

  it('documents the beyond-spec operations, DELETE as 204 and the limits', () => {
    expect(doc.paths['/v1/notes/{id}/restore']?.post?.operationId).to.equal('restore_note');
    expect(doc.paths['/v1/sync']?.get?.operationId).to.equal('sync_changes');
    expect(doc.paths['/v1/notes/{id}']?.put?.responses).to.have.property('412');
    expect(doc.paths['/v1/notes/{id}']?.delete?.responses).to.have.property('204');
    const list = doc.paths['/v1/notes']?.get as Json;
    const limit = list.parameters.find((p: Json) => p.name === 'limit');
    expect(limit.schema).to.include({ minimum: 1, maximum: 100, default: 20 });
    const search = doc.paths['/v1/notes/search']?.get as Json;
    const q = search.parameters.find((p: Json) => p.name === 'q');
    expect(q.required).to.equal(true);
    const sLimit = search.parameters.find((p: Json) => p.name === 'limit');
    expect(sLimit.schema).to.include({ minimum: 1, maximum: 20, default: 10 });
    expect(doc.components.schemas.NoteInput.additionalProperties).to.equal(false);
    expect(doc.components.schemas.NoteInput.required).to.deep.equal(['content']);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes).to.have.keys(
      'notes',
      'offline_access',
    );
  });

  it('declares If-None-Match on the writes, the creates saying what their collection allows', () => {
    // README: a write whose If-None-Match is `*` or lists the current ETag answers 412; a create's
    // target is its collection, which exists (`*` is refused) and carries no ETag (only
    // If-Match `*` holds)
    const params = (op: Json) => (op.parameters ?? []) as Json[];
    const names = (op: Json) => params(op).map((p: Json) => p.name.toLowerCase());
    const path = (p: string) => doc.paths[p] as Record<string, Json>;
    expect(names(path('/v1/notes/{id}').put)).to.include('if-none-match');
    expect(names(path('/v1/notes/{id}').delete)).to.include('if-none-match');
    for (const create of ['/v1/notes', '/v1/tags', '/v1/devices']) {
      const described = Object.fromEntries(
        params(path(create).post).map((p: Json) => [p.name.toLowerCase(), p.description]),
      );
      expect(described['if-none-match'], create).to.match(/^`\*` is refused \(412\)/);
      expect(described['if-match'], create).to.match(/^Only `\*` holds/);
    }
  });

  it('serves the interactive reference at /docs with its assets from this host', async () => {
    const page = await fetch(`${e.base}/docs`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.include('swagger-ui');
    const asset = /src="(\/docs\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).to.be.a('string');
    expect((await fetch(`${e.base}${asset}`)).status).to.equal(200);
    expect(html).to.not.match(/https?:\/\/(cdn|unpkg)/);
  });
});
