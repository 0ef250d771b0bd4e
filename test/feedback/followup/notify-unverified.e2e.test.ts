/**
 * notify_people and addresses nobody proved, over real HTTP against the whole feedback service:
 * an end user types someone's address into the public board's capture box, the item ships, a
 * maker notifies its requesters. The typed address must not count as a way to reach anyone.
 */
import { expect } from 'chai';
import * as actions from '../../../src/feedback/actions/index.js';
import { BoardVisitor, type BoardWorld, fillTime, startBoardWorld } from '../board/support.js';

const CAPTURE = '/capture/acme-co/APP';
const ITEMS = '/v1/workspaces/acme-co/products/APP/items';

describe('notify_people with a typed, unverified address (e2e)', () => {
  let world: BoardWorld;

  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  /** An end user files on the public board with an address they typed and never confirmed. */
  async function captureWithTypedAddress(body: string): Promise<string> {
    const visitor = new BoardVisitor(world.fb.url);
    const { formToken } = JSON.parse((await visitor.get(CAPTURE)).text);
    fillTime(world);
    const res = await visitor.post(
      CAPTURE,
      { formToken, body, email: 'grace@example.com', displayName: 'Grace Okafor', website: '' },
      { json: true },
    );
    expect(res.status, res.text).to.equal(200);
    return JSON.parse(res.text).itemId;
  }

  /** A person of the workspace as the given requester, +1ing the item through the action. */
  async function plusOneAs(itemKey: string, requester: actions.Requester): Promise<string> {
    const { fb, ws } = world;
    const person = await actions.registerPerson(fb.deps(), fb.context(), {
      workspaceId: ws.workspaceId,
      requester,
    });
    const result = await actions.addPlusOne(fb.deps(), fb.context(), {
      workspaceId: ws.workspaceId,
      itemKey,
      personId: person.personId,
    });
    await fb.caughtUp(result.position);
    return person.personId;
  }

  describe('When the only address of a requester was typed into the capture box', () => {
    it('does not count them as delivered: skipped with reason unverified, beside a verified and an anonymous requester', async () => {
      // spec "Close the loop" rule 2: "`delivered` means eligible, not that anything arrived";
      // README "Visitors": "an address merely typed into the capture box is kept as a contact of
      // an unverified person and never reaches the person who owns it"
      const itemKey = await captureWithTypedAddress('Export the board as CSV, please.');
      const ada = await plusOneAs(itemKey, { email: 'ada@example.com', tier: 'email' });
      const anon = await plusOneAs(itemKey, { anonymousId: `visitor:anon-${itemKey}` });
      const maker = world.fb.api(world.owner.token);
      const shipped = await maker.post(`${ITEMS}/${itemKey}/status`, { status: 'shipped' });
      expect(shipped.status, JSON.stringify(shipped.body)).to.equal(200);

      const res = await maker.post(`${ITEMS}/${itemKey}/notify`, { confirm: true });

      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [grace, ...others] = res.body.recipients;
      expect(grace).to.deep.include({
        displayName: 'Grace Okafor',
        delivered: false,
        reason: 'unverified',
      });
      const person = await maker.get(`/v1/workspaces/acme-co/people/${grace.personId}`);
      expect(person.body.tier, 'the typed address stays unverified').to.equal('anonymous');
      expect(others).to.deep.equal([
        { personId: ada, displayName: null, delivered: true },
        { personId: anon, displayName: null, delivered: false, reason: 'anonymous' },
      ]);
      expect(res.body).to.include({ notified: 1, skipped: 2 });
    });
  });
});
