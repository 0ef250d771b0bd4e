/**
 * Correlation ids an auditor can trust. README (Logs, metrics, shutdown): "The correlation id is
 * the server's own, minted for each request … a well-formed `x-correlation-id` the client sends is
 * kept beside it as `clientCorrelationId` … never taken as the correlation id". The service took a
 * well-formed incoming id as the request's correlation id, so any caller — a board visitor too —
 * could copy another request's id and have history and the audit trail link its change to that
 * request.
 */
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, field, SLUG, startBoardWorld } from '../board/support.js';

interface ChangeBody {
  type: string;
  actor: { kind: string; id: string | null };
  correlationId: string;
  clientCorrelationId?: string;
}

const ITEM = `/v1/workspaces/${SLUG}/products/APP/items/APP-1`;
const AUDIT = `/v1/workspaces/${SLUG}/audit`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('When callers send their own x-correlation-id (e2e)', () => {
  let world: BoardWorld;
  before(async function () {
    this.timeout(60_000);
    world = await startBoardWorld();
    await world.fb.submit(world.ws, 'APP', { body: 'Dark mode', email: 'ann@customer.io' });
  });
  after(() => world.fb.stop());
  const owner = () => world.fb.api(world.owner.token);
  const setStatus = (status: string, clientId: string) =>
    owner().post(`${ITEM}/status`, { status }, { headers: { 'x-correlation-id': clientId } });
  const history = async (): Promise<ChangeBody[]> => {
    const res = await owner().get(`${ITEM}/history?pageSize=200`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items;
  };

  it('a visitor who copies a maker’s id gets a correlation id of its own, in history and the audit trail', async function () {
    this.timeout(30_000);
    const moved = await setStatus('planned', 'maker-request-1');
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const makerId = moved.headers.get('x-correlation-id');

    // a public-board visitor sends the maker's id with its +1
    const visitor = new BoardVisitor(world.fb.url);
    const csrf = field((await visitor.get(world.boardPath)).text, 'csrf');
    const pressed = await visitor.post(
      `${world.boardPath}/items/APP-1/plus-one`,
      { csrf, back: 'item' },
      { headers: { 'x-correlation-id': 'maker-request-1' } },
    );
    expect(pressed.status).to.equal(303);
    await world.fb.caughtUp();

    const changes = await history();
    const statusChange = changes.find((c) => c.type === 'ItemStatusChanged')!;
    const plusOne = changes.find((c) => c.type === 'PlusOneAdded')!;
    expect(statusChange.correlationId).to.equal(makerId);
    expect(plusOne.correlationId, 'the visitor’s +1 linked to the maker’s request').not.to.equal(
      makerId,
    );
    expect([makerId, plusOne.correlationId]).to.satisfy((ids: string[]) =>
      ids.every((id) => UUID.test(id)),
    );
    expect(changes.filter((c) => c.correlationId === makerId).map((c) => c.type)).to.deep.equal([
      'ItemStatusChanged',
    ]);
    // what each client claimed stays visible, labelled as the client's
    expect(statusChange.clientCorrelationId).to.equal('maker-request-1');
    expect(plusOne.clientCorrelationId).to.equal('maker-request-1');

    const trail = (await owner().get(`${AUDIT}?pageSize=200`)).body.items as ChangeBody[];
    const linked = trail.filter((c) => c.correlationId === makerId).map((c) => c.type);
    expect(linked).to.deep.equal(['ItemStatusChanged']);
  });

  it('stores no malformed client id (too long, control characters), verbatim or at all', async function () {
    this.timeout(30_000);
    // isWellFormedCorrelationId: 1 to 128 of [A-Za-z0-9._:-]
    for (const [status, sent] of [
      ['in-progress', 'x'.repeat(129)],
      ['shipped', 'forged\tid'],
    ] as const) {
      const res = await setStatus(status, sent);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const answered = res.headers.get('x-correlation-id');
      expect(answered).to.match(UUID);
      const change = (await history()).at(-1)!;
      expect(change.type).to.equal('ItemStatusChanged');
      expect(change.correlationId).to.equal(answered);
      expect(change).not.to.have.property('clientCorrelationId');
    }
  });
});
