import { expect } from 'chai';
import { AlreadyExists, NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { getItem } from '../../../projections/items/index.js';
import { isTokenUsable, tokenByHash } from '../../../projections/tokens/index.js';
import {
  addMember,
  createToken,
  createUser,
  createWorkspace,
  hashToken,
  replyToItem,
  revokeToken,
  tagItem,
  updateItem,
  updateItemStatus,
} from '../../../src/feedback/actions/index.js';
import { countEvents, ctx, withWorld } from './harness.js';
import { seedBoard, submitAs } from './seed.js';

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('When a maker triages an item', () => {
  it('changes the status once; repeating answers changed false and appends nothing', async () => {
    // spec: "when the item already has that status, `changed` is false and the call is safe to repeat"
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await submitAs(world, workspaceId, 'ann@x.io');
      const deps = { commandHandler: world.handler };
      const at = { workspaceId, productKey: 'ACME', itemKey: 'ACME-1' };
      const first = await updateItemStatus(deps, ctx(), { ...at, status: 'planned' });
      const again = await updateItemStatus(deps, ctx(), { ...at, status: 'planned' });
      expect([first.changed, again.changed, again.position]).to.deep.equal([true, false, null]);
      expect(await countEvents(world.events, 'ItemStatusChanged')).to.equal(1);
      const other = await refusal(() =>
        updateItemStatus(deps, ctx(), { ...at, productKey: 'BETA', status: 'shipped' }),
      );
      expect(other).to.be.instanceOf(NotFound);
    });
  });

  it('edits, tags (replacing the set) and replies in threads, visible once projected', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await submitAs(world, workspaceId, 'ann@x.io');
      const deps = { commandHandler: world.handler };
      const at = { workspaceId, productKey: 'ACME', itemKey: 'ACME-1' };
      await updateItem(deps, ctx(), { ...at, title: 'Dark mode', status: 'in-progress' });
      await tagItem(deps, ctx(), { ...at, tagIds: ['ui', 'theme'] });
      const tagged = await tagItem(deps, ctx(), { ...at, tagIds: ['ux'] });
      expect(tagged.tagIds).to.deep.equal(['ux']);
      const maker = { kind: 'maker' as const, id: 'u1', name: 'Max', avatar: null };
      const parent = await replyToItem(deps, ctx({ via: 'pat:laptop' }), {
        ...at,
        body: 'Thanks!',
        author: maker,
      });
      const child = await replyToItem(deps, ctx(), {
        ...at,
        body: 'More',
        parentId: parent.replyId,
        author: maker,
      });
      await world.caughtUp(child.position);
      const found = await getItem(world.readStore, at);
      expect(found!.item).to.include({ title: 'Dark mode', status: 'in-progress', replyCount: 2 });
      expect(found!.item.tagIds).to.deep.equal(['ux']);
      expect(found!.replies.map((r) => r.parentId)).to.deep.equal([null, parent.replyId]);
      expect(found!.replies[0]).to.include({
        authorKind: 'maker',
        authorName: 'Max',
        body: 'Thanks!',
      });
    });
  });

  it('a reply retried with the same Idempotency-Key is recorded once', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await submitAs(world, workspaceId, 'ann@x.io');
      const input = {
        workspaceId,
        productKey: 'ACME',
        itemKey: 'ACME-1',
        body: 'On it',
        author: { kind: 'agent' as const, id: 'client-1', name: 'Claude', avatar: null },
      };
      const context = ctx({ idempotencyKey: 'reply-1' });
      const first = await replyToItem({ commandHandler: world.handler }, context, input);
      const again = await replyToItem(
        { commandHandler: world.handler },
        { ...context, now: context.now + 5 },
        input,
      );
      expect(again.replyId).to.equal(first.replyId);
      expect(await countEvents(world.events, 'ItemReplied')).to.equal(1);
    });
  });
});

describe('When accounts and tokens are managed', () => {
  it('refuses a second workspace with the same slug and a second user with the same e-mail', async () => {
    await withWorld(async (world) => {
      await seedBoard(world);
      const deps = { commandHandler: world.handler, readStore: world.readStore };
      const dup = await refusal(() =>
        createWorkspace(deps, ctx(), { name: 'X', slug: 'acme-co', ownerId: 'u1' }),
      );
      expect(dup).to.be.instanceOf(AlreadyExists);
      expect(
        await refusal(() => createUser(deps, ctx(), { email: 'MAX@acme.io', displayName: 'M' })),
      ).to.be.instanceOf(AlreadyExists);
    });
  });

  it('creates a token only for a maker, stores its hash, and revokes it at once', async () => {
    // spec: "Only makers can create one; ... an account with no workspace is refused."
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const deps = { commandHandler: world.handler, readStore: world.readStore };
      const loner = await createUser(deps, ctx(), { email: 'lone@x.io', displayName: 'Lone' });
      await world.caughtUp(loner.position);
      expect(
        await refusal(() => createToken(deps, ctx(), { ownerId: loner.userId, name: 'cli' })),
      ).to.be.instanceOf(PermissionDenied);
      const added = await addMember(deps, ctx(), {
        workspaceId,
        userId: loner.userId,
        role: 'member',
      });
      await world.caughtUp(added.position);
      const created = await createToken(deps, ctx(), { ownerId: loner.userId, name: 'cli' });
      expect(created.token.startsWith('rft_service_')).to.equal(true);
      await world.caughtUp(created.position);
      const stored = await tokenByHash(world.readStore, hashToken(created.token));
      expect(stored).to.include({ ownerId: loner.userId, name: 'cli', revoked: false });
      expect(JSON.stringify((await world.events.readAll()).map((e) => e.data))).to.not.include(
        created.token,
      );
      const revoked = await revokeToken(deps, ctx(), {
        tokenId: created.tokenId,
        byUserId: loner.userId,
      });
      await world.caughtUp(revoked.position);
      expect(
        isTokenUsable((await tokenByHash(world.readStore, hashToken(created.token)))!, Date.now()),
      ).to.equal(false);
    });
  });
});

describe('When a reply is retried across an upgrade', () => {
  it('answers the reply its first attempt made, though its id is now derived otherwise', async () => {
    // upgrade audit: reply_to_item retried with the same Idempotency-Key after an upgrade was
    // refused (409), the reply id being derived from the actor too since; the retry must
    // answer the first result (README: "a retry with the same Idempotency-Key returns the
    // first result")
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await submitAs(world, workspaceId, 'ann@x.io');
      const deps = { commandHandler: world.handler };
      const at = { workspaceId, productKey: 'ACME', itemKey: 'ACME-1' };
      const author = { kind: 'maker' as const, id: 'u1', name: 'Max', avatar: null };
      await replyToItem(deps, ctx(), { ...at, body: 'Shape of a reply', author });
      const stream = 'item-' + workspaceId + '.ACME-1';
      const [shape] = (await world.events.readStream(stream)).filter(
        (e) => e.type === 'ItemReplied',
      );
      const metadata = { ...shape!.metadata, idempotencyKey: 'K-old', commandHash: 'legacyHash' };
      const legacyId = 'rLegacyDerivedReplyId000';
      await world.events.appendToStream(stream, [
        { type: 'ItemReplied', data: { ...(shape!.data as object), replyId: legacyId }, metadata },
      ]);
      const keyed = ctx({ actor: shape!.metadata.actor, idempotencyKey: 'K-old' });
      const retry = await replyToItem(deps, keyed, { ...at, body: 'Shape of a reply', author });
      expect(retry.replyId).to.equal(legacyId);
      expect(await countEvents(world.events, 'ItemReplied')).to.equal(2);
    });
  });
});
