/**
 * A board visitor who had no name when they acted is shown without one on that change, also
 * after they give a name: history and the audit trail name a person as they were named then
 * (README: "people with the names they had then"), as the Change's own sentence, get_item_as_of
 * and webhook messages do. The name they gave later named the actor of the old +1 while its
 * sentence said "Someone gave a +1". Over real HTTP, through the board's own forms.
 */
import { expect } from 'chai';
import {
  type BoardWorld,
  BoardVisitor,
  field,
  postBoardForm,
  SLUG,
  startBoardWorld,
} from '../board/support.js';

interface ChangeBody {
  type: string;
  itemKey: string | null;
  actor: { kind: string; id: string | null; name: string | null };
  summary: string;
}

describe('When a board visitor gives a +1 without a name and gives one later', function () {
  this.timeout(60_000);
  let world: BoardWorld;
  let itemKey: string;
  const api = () => world.fb.api(world.owner.token);
  const item = () => `/v1/workspaces/${SLUG}/products/APP/items/${itemKey}`;

  before(async () => {
    world = await startBoardWorld();
    ({ itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Dark mode please' }));
    const visitor = new BoardVisitor(world.fb.url);
    const page = await visitor.get(`${world.boardPath}/items/${itemKey}`);
    const csrf = field(page.text, 'csrf');
    const plusOne = await visitor.post(`${world.boardPath}/items/${itemKey}/plus-one`, { csrf });
    expect(plusOne.status).to.equal(303);
    world.fb.clock.advance(10_000);
    const filed = await postBoardForm(world, visitor, {
      title: 'Offline mode',
      body: 'Let me read items offline.',
      website: '',
      displayName: 'Zoe',
    });
    expect(filed.status).to.equal(303);
    await world.fb.caughtUp();
  });
  after(() => world?.fb.stop());

  it('shows the +1 in the item history by no name, as its sentence and as-of do', async () => {
    const history = await api().get(`${item()}/history`);
    const plusOne = (history.body.items as ChangeBody[]).find((c) => c.type === 'PlusOneAdded')!;
    expect(plusOne.summary).to.equal('Someone gave a +1');
    expect(plusOne.actor).to.deep.include({ kind: 'person', name: null });
    const then = await api().get(`${item()}/as-of?revision=1`);
    const voter = then.body.participants.find(
      (p: { personId: string }) => p.personId === plusOne.actor.id,
    );
    expect(voter.displayName).to.equal(null);
  });

  it('does so in the audit trail too, and names them Zoe from when they gave that name', async () => {
    const trail = await api().get(`/v1/workspaces/${SLUG}/audit`);
    const byVisitor = (trail.body.items as ChangeBody[])
      .filter((c) => c.actor.kind === 'person')
      .reverse()
      .map((c) => [c.type, c.actor.name]);
    expect(byVisitor).to.deep.equal([
      ['PersonCreated', null],
      ['PlusOneAdded', null],
      // the update that names them is made by them while still nameless
      ['PersonUpdated', null],
      ['ItemCaptured', 'Zoe'],
    ]);
  });
});
