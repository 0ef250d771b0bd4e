/**
 * A person's id reaches webhook receivers, API answers and the public board, so it must not
 * confirm a guessed (workspace, address): "ids derived from an e-mail address are keyed with the
 * deployment's secret" (README, Ids derived from addresses) — a new person's id is an HMAC, not
 * the plain hash. People made before that keep the unkeyed id they were made with: a later
 * submission with the same address files as that person, never as a second one.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { type Board, SLUG, startBoard } from './board.js';

const feedback = `/v1/public/${SLUG}/APP/feedback`;

/** the id a person of `email` was given before ids were keyed */
const unkeyedIdOf = (workspaceId: string, email: string) =>
  `p${createHash('sha256').update(`${workspaceId}\0email:${email}`).digest('hex').slice(0, 24)}`;

describe('When feedback is filed for an e-mail address (e2e)', () => {
  let board: Board;
  let owner: Api;
  const peopleWith = async (email: string) => {
    const res = await owner.get(`/v1/workspaces/${SLUG}/people?pageSize=100`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items.filter((p: { email: string | null }) => p.email === email);
  };

  before(async () => {
    board = await startBoard();
    owner = board.fb.api(board.owner.token);
  });
  after(() => board.fb.stop());

  it('gives a new person an id that is not the plain hash of the workspace and address', async () => {
    const email = 'new@customer.io';
    const res = await owner.post(feedback, { body: 'Dark mode', email });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [person] = await peopleWith(email);
    expect(person.id).to.match(/^p[0-9a-f]{24}$/);
    expect(person.id).to.not.equal(unkeyedIdOf(board.ws.workspaceId, email));
  });

  it('files a later submission as the person made before ids were keyed (no second person)', async () => {
    const email = 'old@customer.io';
    const legacyId = unkeyedIdOf(board.ws.workspaceId, email);
    // the person's events as an older version wrote them
    await board.fb.runtime.runtime.stores.rawEventStore.appendToStream(
      `person-${legacyId}`,
      [
        {
          type: 'PersonCreated',
          data: {
            personId: legacyId,
            workspaceId: board.ws.workspaceId,
            tier: 'email',
            displayName: 'Olga',
            avatar: null,
            email,
          },
          metadata: {
            actor: null,
            occurredAt: board.fb.clock.now(),
            correlationId: 'pre-upgrade',
            causationId: null,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await board.fb.caughtUp();
    const res = await owner.post(feedback, { body: 'CSV export', email });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const people = await peopleWith(email);
    expect(people.map((p: { id: string }) => p.id)).to.deep.equal([legacyId]);
    const person = await owner.get(`/v1/workspaces/${SLUG}/people/${legacyId}`);
    expect(person.body.items.map((i: { id: string }) => i.id)).to.include(res.body.itemId);
  });
});
