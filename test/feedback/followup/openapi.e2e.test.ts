import { expect } from 'chai';
import { startWorld, type World } from './support/world.js';

const OPERATIONS: Record<string, [string, string, number[]]> = {
  list_people: ['get', '/v1/workspaces/{slug}/people', [400, 401, 403, 404]],
  search_people: ['get', '/v1/workspaces/{slug}/people/search', [400, 401, 403, 404, 429]],
  get_person: ['get', '/v1/workspaces/{slug}/people/{personId}', [400, 401, 403, 404]],
  // spec: "resolve_item and who_needs_followup declare 401, 403, 404 (no 400)"
  who_needs_followup: ['get', '/v1/workspaces/{slug}/followup', [401, 403, 404]],
  // issue 17: a write's rare answer after its retry deadline (or a read model that lags) is a
  // 503 "declared in the operations' OpenAPI entries"; a write answers 409 to an Idempotency-Key
  // already used for a different request (failed-precondition: its status is "not shown")
  notify_people: [
    'post',
    '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/notify',
    [400, 401, 403, 404, 409, 503],
  ],
  draft_changelog_entry: [
    'post',
    '/v1/workspaces/{slug}/products/{key}/items/{itemKey}/changelog',
    [400, 401, 403, 404, 409, 503],
  ],
  summarize_feedback: [
    'get',
    '/v1/workspaces/{slug}/products/{key}/summary',
    [400, 401, 403, 404, 429],
  ],
  search_items: [
    'get',
    '/v1/workspaces/{slug}/products/{key}/items/search',
    [400, 401, 403, 404, 429],
  ],
};

describe('OpenAPI of the people, follow-up and synthesis operations', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.stop());

  it('declares each operation with the spec id, path and error statuses', async () => {
    const doc = (await world.api().get('/v1/openapi.json')).body;
    for (const [id, [method, path, errors]] of Object.entries(OPERATIONS)) {
      const op = doc.paths[path]?.[method];
      expect(op, id).to.exist;
      expect(op.operationId).to.equal(id);
      const statuses = Object.keys(op.responses)
        .filter((s) => s !== '200')
        .map(Number)
        .sort();
      expect(statuses, id).to.deep.equal(errors);
    }
  });

  it('writes down the awaitingReply and follow-up rules', async () => {
    const doc = (await world.api().get('/v1/openapi.json')).body;
    const getPerson = doc.paths['/v1/workspaces/{slug}/people/{personId}'].get;
    expect(getPerson.description)
      .to.match(/new, planned or in-progress/)
      .and.to.match(/maker or an agent/);
    const followup = doc.paths['/v1/workspaces/{slug}/followup'].get;
    expect(followup.description)
      .to.match(/STALE_PROMISE_DAYS/)
      .and.to.match(/notifiedAt/);
    const notify = doc.paths['/v1/workspaces/{slug}/products/{key}/items/{itemKey}/notify'].post;
    expect(notify.description).to.match(/not shipped/);
  });
});
