/**
 * Someone waiting on a thread that is merged away keeps waiting on the survivor. A merged item is
 * read-only and leaves every listing, so the survivor is the only place their question can still
 * be answered; before this rule the merge silently dropped it from repliesOwed and awaitingReply.
 */
import { expect } from 'chai';
import { unmergeItems } from '../../../src/feedback/actions/index.js';
import { createCommandHandler } from '../../../src/write/command-handler.js';
import { registerPerson, startWorld, type World } from './support/world.js';

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

describe('When a thread someone waits on is merged into another item', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.stop());

  const repliesOwed = async (): Promise<string[]> => {
    const res = await world.api().get(`/v1/workspaces/${world.slug}/followup`);
    expect(res.status).to.equal(200);
    return ids(res.body.repliesOwed);
  };
  const awaiting = async (personId: string): Promise<boolean> => {
    const res = await world.api().get(`/v1/workspaces/${world.slug}/people/${personId}`);
    expect(res.status).to.equal(200);
    return res.body.awaitingReply;
  };
  const unmerge = async (survivorKey: string, mergedKeys: string[]) => {
    const { position } = await unmergeItems(
      { commandHandler: createCommandHandler(world.events) },
      world.context(),
      { workspaceId: world.workspaceId, productKey: 'ACME', survivorKey, mergedKeys },
    );
    await world.caughtUp(position);
  };

  /** The survivor was answered; the duplicate ends with a question nobody answered. */
  async function answeredSurvivorAndWaitingDuplicate() {
    const survivor = await world.submit({ email: `s-${world.now()}@x.io`, body: 'Dark mode' });
    world.advance(1000);
    await world.reply(survivor.itemKey, 'maker', 'u-max', 'On our list');
    world.advance(1000);
    const duplicate = await world.submit({ email: `d-${world.now()}@x.io`, body: 'Night theme' });
    world.advance(1000);
    const asker = await registerPerson(world, { email: `q-${world.now()}@x.io`, name: 'Cy' });
    await world.reply(duplicate.itemKey, 'person', asker, 'Any news on this?');
    world.advance(1000);
    return { survivor: survivor.itemKey, duplicate: duplicate.itemKey, asker };
  }

  it('still owes them a reply on the survivor, and they are still awaitingReply', async () => {
    // spec Person record: awaitingReply is "true when the person spoke last on an open thread
    // and is still waiting"; merge_items rule 1: the survivor "keeps the +1s and the people"
    const { survivor, duplicate, asker } = await answeredSurvivorAndWaitingDuplicate();
    expect(await repliesOwed()).to.include(duplicate);
    await world.merge(survivor, [duplicate]);
    expect(await repliesOwed()).to.include(survivor);
    expect(await awaiting(asker)).to.equal(true);
  });

  it('is answered by a maker reply on the survivor, not by a later person speaking there', async () => {
    const { survivor, duplicate, asker } = await answeredSurvivorAndWaitingDuplicate();
    await world.merge(survivor, [duplicate]);
    const other = await registerPerson(world, { email: `o-${world.now()}@x.io`, name: 'Oz' });
    await world.reply(survivor, 'person', other, 'Me too');
    expect(await awaiting(asker)).to.equal(true);
    expect(await awaiting(other)).to.equal(true);
    await world.reply(survivor, 'agent', 'client-1', 'Shipping next week');
    expect(await repliesOwed()).not.to.include(survivor);
    expect(await awaiting(asker)).to.equal(false);
    expect(await awaiting(other)).to.equal(false);
  });

  it('goes back with the duplicate on an unmerge, and follows a survivor merged in turn', async () => {
    const { survivor, duplicate, asker } = await answeredSurvivorAndWaitingDuplicate();
    await world.merge(survivor, [duplicate]);
    const top = await world.submit({ email: `t-${world.now()}@x.io`, body: 'Themes' });
    await world.reply(top.itemKey, 'maker', 'u-max', 'Thanks');
    await world.merge(top.itemKey, [survivor]);
    expect(await repliesOwed()).to.include(top.itemKey);
    expect(await awaiting(asker)).to.equal(true);
    await unmerge(top.itemKey, [survivor]);
    expect(await repliesOwed()).not.to.include(top.itemKey);
    await unmerge(survivor, [duplicate]);
    const owed = await repliesOwed();
    expect(owed).to.include(duplicate);
    expect(owed).not.to.include(survivor);
    expect(await awaiting(asker)).to.equal(true);
  });

  it('does not carry a question from a thread that was already closed', async () => {
    // "on an open thread": a declined duplicate's last speaker waits on nothing
    const { survivor, duplicate, asker } = await answeredSurvivorAndWaitingDuplicate();
    await world.setStatus(duplicate, 'declined');
    await world.merge(survivor, [duplicate]);
    expect(await repliesOwed()).not.to.include(survivor);
    expect(await awaiting(asker)).to.equal(false);
  });
});
