import {
  createProduct,
  createUser,
  createWorkspace,
  submitFeedback,
} from '../../../src/feedback/actions/index.js';
import { ctx, type World } from './harness.js';
import { withPersonIds } from '../../support/person-ids.js';

/** A maker u1 (admin) in workspace `acme-co` with the public product ACME. */
export async function seedBoard(world: World): Promise<{ workspaceId: string }> {
  const deps = { commandHandler: world.handler, readStore: world.readStore };
  await createUser(deps, ctx(), { userId: 'u1', email: 'max@acme.io', displayName: 'Max' });
  await world.caughtUp();
  const { workspaceId } = await createWorkspace(deps, ctx(), {
    name: 'Acme',
    slug: 'acme-co',
    ownerId: 'u1',
  });
  await createProduct(deps, ctx(), {
    workspaceId,
    key: 'ACME',
    name: 'Acme',
    visibility: 'public',
  });
  await world.caughtUp();
  return { workspaceId };
}

export async function submitAs(
  world: World,
  workspaceId: string,
  email: string,
  body = 'Please add dark mode',
) {
  const deps = withPersonIds({ commandHandler: world.handler, readStore: world.readStore });
  return submitFeedback(deps, ctx(), {
    workspaceId,
    productKey: 'ACME',
    body,
    requester: { email, displayName: email.split('@')[0] },
  });
}
