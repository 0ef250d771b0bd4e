/**
 * What the webhook worker tests share: the feedback projections running on the given stores, a
 * workspace `acme-co` (owner Max) with public products, and workers built as the runtime does.
 */
import { feedbackProjectors } from '../../../projections/feedback.js';
import * as actions from '../../../src/feedback/actions/index.js';
import type { EventStore } from '../../../src/eventstore/types.js';
import { createProjectionEngine } from '../../../src/read/projection-engine.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import type { CommandContext } from '../../../src/write/batch.js';
import { createCommandHandler } from '../../../src/write/command-handler.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { systemClock } from '../../../src/webhooks/clock.js';
import { createComposer } from '../../../src/webhooks/messages/compose.js';
import { createSecretBox } from '../../../src/webhooks/secrets.js';
import { createWebhookWorker, type WebhookWorker } from '../../../src/webhooks/worker/worker.js';

export type ProjectionEngine = ReturnType<typeof createProjectionEngine>;

export async function startProjections(stores: {
  eventStore: EventStore;
  readStore: ReadStore;
}): Promise<ProjectionEngine> {
  const engine = createProjectionEngine({
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    projectors: feedbackProjectors(),
  });
  await engine.start();
  return engine;
}

/** Creates the workspace and its products (public, named by their keys); its id. */
export async function seedBoard(
  stores: { eventStore: EventStore; readStore: ReadStore },
  context: () => CommandContext,
  productKeys: readonly string[] = ['APP'],
): Promise<string> {
  const deps = {
    commandHandler: createCommandHandler(stores.eventStore),
    readStore: stores.readStore,
  };
  const { userId } = await actions.createUser(deps, context(), {
    email: 'max@acme.io',
    displayName: 'Max',
  });
  const { workspaceId } = await actions.createWorkspace(deps, context(), {
    slug: 'acme-co',
    name: 'Acme',
    ownerId: userId,
  });
  for (const key of productKeys) {
    await actions.createProduct(deps, context(), {
      workspaceId,
      key,
      name: key,
      visibility: 'public',
    });
  }
  return workspaceId;
}

/** Signing secrets and the target policy of these tests (receivers on 127.0.0.1). */
export const secrets = createSecretBox('webhook-worker-tests-secret-0123456789');
export const policy = { allowPrivate: true };

/** A webhook worker over the stores as the runtime builds one; `readStore` may wrap theirs. */
export function startableWorker(
  stores: { eventStore: EventStore; readStore: ReadStore },
  engine: ProjectionEngine,
  options: { readStore?: ReadStore; leaseMs?: number; renewMs?: number } = {},
): WebhookWorker {
  return createWebhookWorker({
    eventStore: stores.eventStore,
    readStore: options.readStore ?? stores.readStore,
    commandHandler: createCommandHandler(stores.eventStore),
    waitFor: (position) => engine.waitFor(position),
    composer: createComposer({ eventStore: stores.eventStore, readStore: stores.readStore }),
    secrets,
    policy,
    clock: systemClock,
    concurrency: 4,
    logger: silentLogger,
    leaseMs: options.leaseMs,
    renewMs: options.renewMs,
  });
}
