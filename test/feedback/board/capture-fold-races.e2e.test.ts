/**
 * One visitor's identical submissions sent together (a double click, a retried form). README
 * (Public board): "the same body from the same person on the same product within 10 minutes
 * answers the first item instead of filing a second one (also when the submissions are sent
 * together)", and a submission holds its bucket tokens while it races, "given back once folded":
 * a fold files nothing, so it spends nothing of the person's burst (4 here). Drawn before the
 * product folded them, the folded twins had spent the visitor's burst for one item. The whole
 * feedback service over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import {
  BoardVisitor,
  type BoardWorld,
  field,
  fillTime,
  filedKey,
  SLUG,
  startBoardWorld,
} from './support.js';

describe("When one visitor's identical submissions arrive together (e2e)", function () {
  this.timeout(60_000);
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld({ CAPTURE_PERSON_BURST: '4', CAPTURE_PERSON_PER_HOUR: '1' });
  });
  after(() => world.fb.stop());

  const capture = `/capture/${SLUG}/APP`;
  /** `visitor`'s submissions of `bodies`, each with a form shown before, sent together */
  async function submitTogether(visitor: BoardVisitor, bodies: string[]) {
    const forms: { formToken: string; csrf: string }[] = [];
    for (const _ of bodies) {
      const board = await visitor.get(world.boardPath);
      forms.push({ formToken: field(board.text, 'formToken'), csrf: field(board.text, 'csrf') });
    }
    fillTime(world);
    return Promise.all(
      bodies.map((body, i) => visitor.post(capture, { ...forms[i], body }, { json: true })),
    );
  }

  it('files one item for 3 twins and leaves the visitor 2 of their 4 for other items', async () => {
    const visitor = new BoardVisitor(world.fb.url);
    const [first] = await submitTogether(visitor, ['My first idea.']);
    expect(first!.status, first!.text).to.equal(200);

    const twins = await submitTogether(visitor, Array(3).fill('Please add dark mode.'));
    expect(twins.map((page) => page.status)).to.deep.equal([200, 200, 200]);
    expect(new Set(twins.map(filedKey)).size, 'one item').to.equal(1);

    const others: number[] = [];
    for (const body of ['Another idea.', 'A third idea.', 'A fourth idea.']) {
      others.push((await submitTogether(visitor, [body]))[0]!.status);
    }
    expect(others).to.deep.equal([200, 200, 429]);
  });
});
