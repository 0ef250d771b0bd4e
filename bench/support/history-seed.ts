/**
 * An item with 1,000 events after its capture, written through the actions the API uses, for
 * bench:history. The clock moves a second per event so `at` questions land between revisions.
 */
import {
  addPlusOne,
  createProduct,
  createToken,
  createUser,
  createPersonIds,
  createWorkspace,
  PERSON_ID_PURPOSE,
  registerPerson,
  replyToItem,
  submitFeedback,
  tagItem,
  updateItem,
  updateItemStatus,
} from '../../src/feedback/actions/index.js';
import { idKeyFor } from '../../src/platform/id-keys.js';
import type { Runtime } from '../../src/platform/runtime.js';

const STATUSES = ['planned', 'in-progress', 'shipped', 'declined', 'new'] as const;
const TAGS = ['ui', 'api', 'mobile', 'billing', 'search'];

export async function seedLongItem(runtime: Runtime) {
  const handlers = {
    commandHandler: runtime.context.commandHandler,
    readStore: runtime.stores.readStore,
  };
  const personIdKey = idKeyFor(runtime.context.secret, PERSON_ID_PURPOSE);
  const deps = { ...handlers, personIds: createPersonIds({ ...handlers, personIdKey }) };
  let clock = Date.UTC(2025, 0, 1);
  const context = () => {
    clock += 1_000;
    return { actor: null, via: 'bench', now: clock };
  };
  const settle = async () =>
    runtime.context.waitFor(await runtime.stores.eventStore.headPosition());
  const { userId } = await createUser(deps, context(), {
    email: 'max@bench.io',
    displayName: 'Max',
  });
  await settle();
  const { workspaceId } = await createWorkspace(deps, context(), {
    slug: 'bench-co',
    name: 'Bench',
    ownerId: userId,
  });
  await createProduct(deps, context(), {
    workspaceId,
    key: 'BNC',
    name: 'Bench',
    visibility: 'public',
  });
  const { token } = await createToken(
    deps,
    { ...context(), actor: userId },
    {
      ownerId: userId,
      name: 'bench',
      expiresAt: null,
    },
  );
  const startedAt = clock;
  const { itemKey } = await submitFeedback(deps, context(), {
    workspaceId,
    productKey: 'BNC',
    body: 'The board takes seconds to load on a slow connection.',
    requester: { email: 'ann@customer.io', displayName: 'Ann' },
  });
  const people = await Promise.all(
    Array.from(
      { length: 300 },
      async (_, i) =>
        (
          await registerPerson(deps, context(), {
            workspaceId,
            requester: { email: `person${i}@customer.io`, displayName: `Person ${i}` },
          })
        ).personId,
    ),
  );
  const address = { workspaceId, productKey: 'BNC', itemKey };
  let plusOnes = 0;
  let status = 0;
  // every step below appends exactly one event: new +1s, a status other than the current one,
  // another tag set, another title
  for (let i = 0; i < 1_000; i++) {
    const slot = i % 10;
    if (slot < 3) {
      await addPlusOne(deps, context(), { workspaceId, itemKey, personId: people[plusOnes++]! });
    } else if (slot < 6) {
      await replyToItem(deps, context(), {
        ...address,
        body: `Reply ${i}: we are looking into it, thanks for the details.`,
        author: { kind: 'maker', id: userId, name: 'Max', avatar: null },
      });
    } else if (slot < 8) {
      status = (status + 1) % STATUSES.length;
      await updateItemStatus(deps, context(), { ...address, status: STATUSES[status]! });
    } else if (slot < 9) {
      await tagItem(deps, context(), { ...address, tagIds: [TAGS[i % 5]!, `t${i}`] });
    } else {
      await updateItem(deps, context(), { ...address, title: `Faster board loading (${i})` });
    }
  }
  await settle();
  const events = (await runtime.stores.eventStore.readStream(`item-${workspaceId}.${itemKey}`))
    .length;
  return {
    itemKey,
    token,
    events,
    people: people.length,
    path: `/v1/workspaces/bench-co/products/BNC/items/${itemKey}`,
    startedAt,
    endedAt: clock,
  };
}
