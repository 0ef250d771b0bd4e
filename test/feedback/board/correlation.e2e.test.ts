/**
 * README (Logs, metrics, shutdown): "The correlation id is also stored in the metadata of every
 * event the request appends". The board's own writes (the capture box, +1) minted an id of their
 * own for their events, so the access line's id led to no event.
 */
import { expect } from 'chai';
import {
  BoardVisitor,
  type BoardWorld,
  field,
  fillTime,
  SLUG,
  startBoardWorld,
} from './support.js';

describe("The board's writes carry the request's correlation id into their events (e2e)", () => {
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  /** the types of the events under the id answered, each keeping the id the client sent */
  const tracedTypes = async (answered: { headers: Headers }, clientId: string) => {
    const id = answered.headers.get('x-correlation-id');
    const events = (await world.fb.runtime.runtime.stores.eventStore.readAll()).filter(
      (e) => e.metadata.correlationId === id,
    );
    for (const e of events) expect(e.metadata.clientCorrelationId).to.equal(clientId);
    return events.map((e) => e.type);
  };

  it('a capture box post and a +1 append their events under the id answered, with the one sent', async () => {
    const visitor = new BoardVisitor(world.fb.url);
    const board = await visitor.get(world.boardPath);
    fillTime(world);
    const filed = await visitor.post(
      `/capture/${SLUG}/APP`,
      {
        formToken: field(board.text, 'formToken'),
        csrf: field(board.text, 'csrf'),
        title: 'Trace the board',
        body: 'Follow this capture to its events.',
      },
      { headers: { 'x-correlation-id': 'board-capture-1' } },
    );
    expect(filed.status).to.equal(303);
    expect(filed.headers.get('x-correlation-id')).to.match(/^[0-9a-f-]{36}$/);
    expect(await tracedTypes(filed, 'board-capture-1')).to.include('ItemCaptured');

    const { itemKey } = await world.fb.submit(world.ws, 'APP', { body: 'Someone else asked' });
    const csrf = field((await visitor.get(world.boardPath)).text, 'csrf');
    const pressed = await visitor.post(
      `${world.boardPath}/items/${itemKey}/plus-one`,
      { csrf, back: 'item' },
      { headers: { 'x-correlation-id': 'board-plus-one-1' } },
    );
    expect(pressed.status).to.equal(303);
    expect(await tracedTypes(pressed, 'board-plus-one-1')).to.include('PlusOneAdded');
  });
});
