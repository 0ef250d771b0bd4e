/**
 * list_audit_events' `productKey` and the people a product's submissions bring (README, History:
 * "`productKey` … only the product's own events, its items' events and the person events its
 * submissions and +1s recorded"). A submission or a +1 that creates the person who made it is
 * one request: the person's creation came with the item's capture, so filtering by product must
 * not show an item submitted by someone whose creation is missing from that product's trail.
 */
import { expect } from 'chai';
import { registerPerson } from '../../../src/feedback/actions/index.js';
import {
  BoardVisitor,
  type BoardWorld,
  field,
  filedKey,
  postBoardForm,
  SLUG,
  startBoardWorld,
} from '../board/support.js';

const AUDIT = `/v1/workspaces/${SLUG}/audit`;

interface ChangeBody {
  type: string;
  itemKey: string | null;
  correlationId: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

describe('The audit trail of one product and the people its submissions bring (e2e)', () => {
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld();
    await world.fb.createProduct(world.ws, { key: 'OTH', name: 'Other', visibility: 'public' });
  });
  after(() => world.fb.stop());
  const owner = () => world.fb.api(world.owner.token);
  const trail = async (query: string): Promise<ChangeBody[]> => {
    const res = await owner().get(`${AUDIT}?pageSize=200&${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items;
  };
  /** the changes recorded by the request that recorded `change` */
  const sameRequest = (changes: ChangeBody[], change: ChangeBody) =>
    changes.filter((c) => c.correlationId === change.correlationId).map((c) => c.type);

  describe('When a board visitor files feedback and so becomes a person', () => {
    it('lists the PersonCreated in that product’s trail beside the capture, and in no other product’s', async () => {
      const visitor = new BoardVisitor(world.fb.url);
      const filed = await postBoardForm(world, visitor, { title: 'Offline', body: 'Read offline' });
      const itemKey = filedKey(filed);
      const app = await trail('productKey=APP');
      const captured = app.find((c) => c.type === 'ItemCaptured' && c.itemKey === itemKey)!;
      expect(sameRequest(app, captured)).to.deep.equal(['ItemCaptured', 'PersonCreated']);
      const created = (await trail('type=PersonCreated')).filter(
        (c) => c.correlationId === captured.correlationId,
      );
      expect(created).to.have.length(1);
      expect((await trail('productKey=OTH')).map((c) => c.type)).to.deep.equal(['ProductCreated']);
    });
  });

  describe('When a board visitor files in a second product under a new name', () => {
    it('lists the PersonUpdated that submission recorded in the second product’s trail only', async () => {
      const visitor = new BoardVisitor(world.fb.url);
      const first = await postBoardForm(world, visitor, { body: 'Sync', displayName: 'Zoe' });
      expect(first.status).to.equal(303);
      const board = await visitor.get(`/${SLUG}/OTH`);
      world.fb.clock.advance(4_000);
      const form = { formToken: field(board.text, 'formToken'), csrf: field(board.text, 'csrf') };
      const second = await visitor.post(`/capture/${SLUG}/OTH`, {
        ...form,
        body: 'Sync there too',
        displayName: 'Zoe B',
      });
      expect(second.status, second.text).to.equal(303);
      const oth = await trail('productKey=OTH');
      const renamed = oth.find((c) => c.type === 'PersonUpdated')!;
      expect(renamed, 'a PersonUpdated in the trail of OTH').to.exist;
      expect(renamed.changes.displayName).to.deep.equal({ from: 'Zoe', to: 'Zoe B' });
      expect(sameRequest(oth, renamed)).to.deep.equal(['ItemCaptured', 'PersonUpdated']);
      expect((await trail('productKey=APP')).map((c) => c.type)).not.to.include('PersonUpdated');
    });
  });

  describe('When submit_feedback files for a new person in one product, then again in another', () => {
    it('places the creation in the first product only: the second submission created no one', async () => {
      const submit = (key: string, body: string) =>
        owner().post(`/v1/public/${SLUG}/${key}/feedback`, {
          body,
          email: 'ann@customer.io',
          displayName: 'Ann',
        });
      expect((await submit('OTH', 'Export to CSV')).status).to.be.oneOf([200, 201]);
      const oth = await trail('productKey=OTH');
      const csv = oth.find((c) => c.type === 'ItemCaptured')!;
      expect(sameRequest(oth, csv)).to.deep.equal(['ItemCaptured', 'PersonCreated']);
      const ann = oth.find((c) => c.correlationId === csv.correlationId && c !== csv)!;
      expect(ann.changes.email).to.deep.equal({ from: null, to: 'ann@customer.io' });
      expect((await submit('APP', 'Export to PDF')).status).to.be.oneOf([200, 201]);
      const app = await trail('productKey=APP');
      const pdf = app.find((c) => c.type === 'ItemCaptured')!;
      expect(sameRequest(app, pdf)).to.deep.equal(['ItemCaptured']);
      expect(app.map((c) => c.correlationId)).not.to.include(csv.correlationId);
    });
  });

  describe('When a board visitor’s +1 is what makes them a person', () => {
    it('lists their PersonCreated in the trail of the product whose item they +1’d', async () => {
      const visitor = new BoardVisitor(world.fb.url);
      const page = await visitor.get(`${world.boardPath}/items/APP-1`);
      const press = await visitor.post(
        `${world.boardPath}/items/APP-1/plus-one`,
        { csrf: field(page.text, 'csrf') },
        { json: true },
      );
      expect(press.status, press.text).to.equal(200);
      const app = await trail('productKey=APP');
      const plusOne = app.find((c) => c.type === 'PlusOneAdded')!;
      expect(sameRequest(app, plusOne)).to.deep.equal(['PlusOneAdded', 'PersonCreated']);
    });
  });

  describe('When a person was registered by a request of its own', () => {
    it('leaves their creation out of the product trail of what they file later', async () => {
      const deps = world.fb.deps();
      const { workspaceId } = world.ws;
      const requester = { email: 'bo@customer.io', displayName: 'Bo' };
      const bo = await registerPerson(deps, world.fb.context(), { workspaceId, requester });
      await world.fb.caughtUp(bo.position);
      const res = await owner().post(`/v1/public/${SLUG}/APP/feedback`, {
        body: 'Keyboard shortcuts',
        ...requester,
      });
      expect(res.status).to.be.oneOf([200, 201]);
      const created = (await trail('type=PersonCreated')).find(
        (c) => c.changes.email?.to === 'bo@customer.io',
      )!;
      const app = await trail('productKey=APP');
      expect(app.map((c) => c.correlationId)).not.to.include(created.correlationId);
      const filed = app.find((c) => c.type === 'ItemCaptured')!;
      expect(sameRequest(app, filed)).to.deep.equal(['ItemCaptured']);
    });
  });
});
