/**
 * describeActor (projections/people/actor.ts), the actor of every Change (issue 15) and of
 * webhook messages (issue 18): "metadata.actor null → system; via starting `api:` → agent, name =
 * the client name; via starting `integration:` → agent, name = the connection name; actor is a
 * person of the workspace → person with their displayName; otherwise → maker with the user's
 * displayName." An `api:` agent also carries `actingFor`: the user (or person) it acted for,
 * described by the last two rules, since the label says only through what.
 */
import { expect } from 'chai';
import { describeActor } from '../../../projections/people/actor.js';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';

const at = { occurredAt: 1, correlationId: 'c', causationId: null };

describe('When the actor of an event is described', () => {
  const store = createMemoryReadStore();
  before(async () => {
    await store.collection('people').insertOne({ _id: 'p1', displayName: 'Ann', _ws: 'w1' });
    await store.collection('people').insertOne({ _id: 'p2', displayName: 'Bo', _ws: 'w2' });
    await store.collection('users').insertOne({ _id: 'u1', displayName: 'Max' });
  });

  it('names the system, agents by client or connection, people and makers', async () => {
    const describe = (actor: string | null, via?: string) =>
      describeActor(store, 'w1', { actor, ...(via ? { via } : {}), ...at });
    expect(await describe(null, 'cli')).to.deep.equal({ kind: 'system', id: null, name: null });
    expect(await describe('u1', 'api:Claude')).to.deep.equal({
      kind: 'agent',
      id: 'u1',
      name: 'Claude',
      actingFor: { kind: 'maker', id: 'u1', name: 'Max' },
    });
    expect(await describe('u1', 'integration:Zendesk EU')).to.deep.equal({
      kind: 'agent',
      id: 'u1',
      name: 'Zendesk EU',
    });
    expect(await describe('p1')).to.deep.equal({ kind: 'person', id: 'p1', name: 'Ann' });
    expect(await describe('u1', 'pat:laptop')).to.deep.equal({
      kind: 'maker',
      id: 'u1',
      name: 'Max',
    });
    // a person of another workspace is not this workspace's person; an unknown user has no name
    expect(await describe('p2')).to.deep.equal({ kind: 'maker', id: 'p2', name: null });
  });
});
