/**
 * A visitor's own item on the board, over real HTTP. The item decider records nothing when the
 * submitter presses +1 on their own item ("the submitter's own request is not an extra +1"), so
 * the board offers them no +1 there and refuses one sent anyway, instead of answering as if it
 * toggled.
 */
import { expect } from 'chai';
import { OWN_ITEM } from '../../../src/feedback/board/plus-one-route.js';
import {
  BoardVisitor,
  type BoardWorld,
  field,
  filedKey,
  postBoardForm,
  startBoardWorld,
} from './support.js';

describe("A visitor's own feedback on the board (e2e)", () => {
  let world: BoardWorld;
  const log = async () => world.fb.runtime.runtime.stores.eventStore.headPosition();
  const plusOneCount = async (key: string) =>
    (await world.fb.api(world.owner.token).get(`/v1/workspaces/acme-co/products/APP/items/${key}`))
      .body.item.plusOneCount;

  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  /** a visitor who filed an item from the board, without JavaScript (the cookie is set then) */
  async function submitter(body: string) {
    const v = new BoardVisitor(world.fb.url);
    const key = filedKey(await postBoardForm(world, v, { title: body, body }));
    return { v, key, plusOne: `${world.boardPath}/items/${key}/plus-one` };
  }

  describe('When the submitter looks at their item', () => {
    it('shows "Your feedback" instead of a +1 button on the item page and the board', async () => {
      // item decider, AddPlusOne: "the submitter's own request is not an extra +1"; the page
      // must never offer an action that would not happen
      const { v, key, plusOne } = await submitter('My own idea');
      const page = await v.get(`${world.boardPath}/items/${key}`);
      expect(page.text).to.include('Your feedback');
      expect(page.text).to.not.include(`action="${world.fb.url}${plusOne}"`);
      const board = await v.get(world.boardPath);
      const link = `href="${world.fb.url}${world.boardPath}/items/${key}"`;
      const row = board.text.split('<li class="item">').find((li) => li.includes(link));
      expect(row).to.include('Your feedback').and.not.include(`${plusOne}"`);
      // anyone else still gets the button
      const other = await new BoardVisitor(world.fb.url).get(`${world.boardPath}/items/${key}`);
      expect(other.text).to.include(`action="${world.fb.url}${plusOne}"`);
      expect(other.text).to.not.include('Your feedback');
    });
  });

  describe('When the submitter sends a +1 for their own item anyway', () => {
    it('refuses it with 409 as JSON and as a page, and appends nothing', async () => {
      // README "Visitors": "one +1 per person per item"; the refusal is the board's usual
      // `{error, code}` envelope for JSON callers and a readable page for forms
      const { v, key, plusOne } = await submitter('Another idea of mine');
      // the item page has no +1 form for them now: the token comes from the capture box
      const csrf = field((await v.get(world.boardPath)).text, 'csrf');
      const head = await log();
      const json = await v.post(plusOne, { csrf }, { json: true });
      expect(json.status).to.equal(409);
      expect(JSON.parse(json.text)).to.deep.equal({ error: OWN_ITEM, code: 'failed-precondition' });
      const form = await v.post(plusOne, { csrf, back: 'item' });
      expect(form.status).to.equal(409);
      expect(form.headers.get('content-type')).to.match(/^text\/html/);
      expect(form.text).to.include('your own feedback');
      expect(await log()).to.equal(head);
      expect(await plusOneCount(key)).to.equal(0);
    });

    it('still counts a +1 from another visitor', async () => {
      const { key, plusOne } = await submitter('Idea others like');
      const other = new BoardVisitor(world.fb.url);
      const csrf = field((await other.get(`${world.boardPath}/items/${key}`)).text, 'csrf');
      const answer = await other.post(plusOne, { csrf }, { json: true });
      expect(JSON.parse(answer.text)).to.include({ plusOneCount: 1, plusOned: true });
    });
  });
});
