/**
 * `describeActor`: who made a change, as webhook messages (issue 18: `actor` is `{kind, id,
 * name}` with kind maker|person|agent|system) and audit entries describe it.
 */
import { expect } from 'chai';
import { peopleProjector } from '../../../projections/people/projector.js';
import { usersProjector } from '../../../projections/users/projector.js';
import type { EventMetadata } from '../../../src/eventstore/types.js';
import { describeActor } from '../../../projections/people/actor.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import { EventLog, project, withReadStore } from '../harness.js';

const meta = (actor: string | null, via?: string): EventMetadata => ({
  actor,
  ...(via ? { via } : {}),
  occurredAt: 1,
  correlationId: 'c',
  causationId: null,
});

async function seeded(run: (store: ReadStore) => Promise<void>): Promise<void> {
  await withReadStore(async (store) => {
    const log = new EventLog();
    log.add('user-u1', {
      type: 'UserCreated',
      data: { userId: 'u1', email: 'max@acme.io', displayName: 'Max' },
    });
    log.add('person-p1', {
      type: 'PersonCreated',
      data: {
        personId: 'p1',
        workspaceId: 'ws1',
        tier: 'email',
        displayName: 'Paula',
        avatar: null,
        email: 'paula@example.com',
      },
    });
    await project(usersProjector(), store, log.events);
    await project(peopleProjector(), store, log.events);
    await run(store);
  });
}

describe('When an event’s actor is described', () => {
  it('is the system when the event has no actor', async () => {
    await seeded(async (store) => {
      expect(await describeActor(store, 'ws1', meta(null))).to.deep.equal({
        kind: 'system',
        id: null,
        name: null,
      });
    });
  });

  it('is an agent named after the OAuth client or the integration connection', async () => {
    await seeded(async (store) => {
      // the client acts for its user, whom the entry names too: the label alone says only through what
      expect(await describeActor(store, 'ws1', meta('u1', 'api:Claude'))).to.deep.equal({
        kind: 'agent',
        id: 'u1',
        name: 'Claude',
        actingFor: { kind: 'maker', id: 'u1', name: 'Max' },
      });
      expect(await describeActor(store, 'ws1', meta('p1', 'api:Claude'))).to.deep.equal({
        kind: 'agent',
        id: 'p1',
        name: 'Claude',
        actingFor: { kind: 'person', id: 'p1', name: 'Paula' },
      });
      expect(
        await describeActor(store, 'ws1', meta('int_1', 'integration:Zendesk sync')),
      ).to.deep.equal({ kind: 'agent', id: 'int_1', name: 'Zendesk sync' });
    });
  });

  it('is a person of the workspace with their display name', async () => {
    await seeded(async (store) => {
      expect(await describeActor(store, 'ws1', meta('p1', 'widget'))).to.deep.equal({
        kind: 'person',
        id: 'p1',
        name: 'Paula',
      });
      // a person of another workspace is nobody's person here
      expect(await describeActor(store, 'ws2', meta('p1'))).to.deep.equal({
        kind: 'maker',
        id: 'p1',
        name: null,
      });
    });
  });

  it('is otherwise a maker with the user’s display name', async () => {
    await seeded(async (store) => {
      expect(await describeActor(store, 'ws1', meta('u1', 'pat:laptop'))).to.deep.equal({
        kind: 'maker',
        id: 'u1',
        name: 'Max',
      });
      expect(await describeActor(store, 'ws1', meta('u-gone'))).to.deep.equal({
        kind: 'maker',
        id: 'u-gone',
        name: null,
      });
    });
  });
});
