/**
 * The people / follow-up / synthesis operations end to end over real HTTP on 127.0.0.1:0, with
 * real embedded stores, the real projections (plus the changelog and search projectors this
 * area adds), the real workspace authorizer, a FIXED clock the test moves, and an injectable
 * embedder. Callers authenticate with `Bearer user:<userId>` (authentication itself is tested
 * elsewhere; here it only names the caller). Seeding goes through the actions.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import type { AuthorKind, ItemStatus } from '../../../../commands/item/index.js';
import { Unauthenticated } from '../../../../commands/shared/errors.js';
import { feedbackProjectors } from '../../../../projections/feedback.js';
import {
  type CommandContext,
  createCommandHandler,
} from '../../../../src/write/command-handler.js';
import { configSchema } from '../../../../src/config/schema.js';
import { openEmbeddedEventStore } from '../../../../src/eventstore/embedded/index.js';
import type { EventStore } from '../../../../src/eventstore/types.js';
import * as actions from '../../../../src/feedback/actions/index.js';
import { createAuthorizer } from '../../../../src/feedback/auth/authorize.js';
import { followupOperations } from '../../../../src/feedback/http/followup/index.js';
import type { FeedbackTypes } from '../../../../src/feedback/http/types.js';
import {
  createFeedbackSearch,
  type FeedbackSearch,
} from '../../../../src/feedback/search/index.js';
import {
  createCursorCodec,
  createServiceHttp,
  feedbackEnvelope,
} from '../../../../src/http/registry.js';
import { silentLogger } from '../../../../src/platform/logger.js';
import { createProjectionEngine } from '../../../../src/read/projection-engine.js';
import { openEmbeddedReadStore } from '../../../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../../../src/readstore/types.js';
import type { Embedder } from '../../../../src/search/embedder.js';
import { fakeEmbedder } from '../../../search/support/fake-embedder.js';
import { tempDir } from '../../../support/stores.js';
import { type Api, apiClient } from '../../support/api.js';
import { withPersonIds } from '../../../support/person-ids.js';

export const T0 = Date.UTC(2025, 0, 15, 12);
export const MAKER = 'u-max';
export const OUTSIDER = 'u-eve';

export interface World {
  url: string;
  events: EventStore;
  readStore: ReadStore;
  search: FeedbackSearch;
  workspaceId: string;
  slug: string;
  now(): number;
  advance(ms: number): void;
  api(userId?: string): Api;
  context(extra?: Partial<CommandContext>): CommandContext;
  caughtUp(position?: bigint | null): Promise<void>;
  submit(input: {
    email?: string | null;
    name?: string | null;
    body?: string;
    title?: string;
    product?: string;
    anonymousId?: string;
  }): Promise<{ itemKey: string; personId: string }>;
  reply(itemKey: string, kind: AuthorKind, authorId: string, body?: string): Promise<void>;
  plusOne(itemKey: string, personId: string): Promise<void>;
  setStatus(itemKey: string, status: ItemStatus): Promise<void>;
  tag(itemKey: string, tagIds: string[]): Promise<void>;
  merge(survivorKey: string, mergedKeys: string[]): Promise<void>;
  unmerge(survivorKey: string, mergedKeys: string[]): Promise<void>;
  createProduct(key: string): Promise<void>;
  countEvents(type: string): Promise<number>;
  stop(): Promise<void>;
}

export interface WorldOptions {
  embedder?: Embedder;
  staleDays?: number;
  matchThreshold?: number;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const dir = tempDir('followup-');
  const events = await openEmbeddedEventStore({ path: join(dir, 'events.sqlite') });
  const readStore = await openEmbeddedReadStore({ path: join(dir, 'read.sqlite') });
  const search = createFeedbackSearch({
    embedder: options.embedder ?? fakeEmbedder(),
    delayMs: 5,
    ...(options.matchThreshold !== undefined ? { matchThreshold: options.matchThreshold } : {}),
  });
  const engine = createProjectionEngine({
    eventStore: events,
    readStore,
    projectors: [...feedbackProjectors(), ...search.projectors()],
    logger: { error() {}, info() {} },
  });
  await engine.start();
  search.start(readStore);
  const commandHandler = createCommandHandler(events);
  let clock = T0;
  const now = () => clock;
  const config = configSchema.parse({
    ...(options.staleDays ? { STALE_PROMISE_DAYS: String(options.staleDays) } : {}),
  });
  const http = createServiceHttp<FeedbackTypes>({
    title: 'Feedback board (follow-up tests)',
    version: '1.0.0',
    operations: followupOperations({
      config,
      commandHandler,
      readStore,
      cursors: createCursorCodec('followup-test-cursor-secret'),
      now,
      logger: silentLogger,
      search,
    }),
    envelope: feedbackEnvelope(),
    async authenticate(req) {
      const match = /^Bearer user:(.+)$/.exec(req.headers.authorization ?? '');
      if (!match) throw new Unauthenticated('missing or invalid credential');
      return { userId: match[1]!, credential: 'pat', via: 'pat:test', scopes: [] };
    },
    authorize: createAuthorizer({ readStore }),
    waitFor: (position) => engine.waitFor(position),
    validateResponses: true,
    openapiPath: '/v1/openapi.json',
    logger: silentLogger,
  });
  const app = express();
  app.use(http.middleware);
  app.use(http.fallback);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const deps = withPersonIds({ commandHandler, readStore, eventStore: events });
  const context = (extra: Partial<CommandContext> = {}): CommandContext => ({
    actor: MAKER,
    now: clock,
    ...extra,
  });
  const caughtUp = async (position?: bigint | null) => {
    await engine.waitFor(position ?? (await events.headPosition()));
  };

  await actions.createUser(deps, context(), {
    userId: MAKER,
    email: 'max@acme.io',
    displayName: 'Max',
  });
  await actions.createUser(deps, context(), {
    userId: OUTSIDER,
    email: 'eve@else.io',
    displayName: 'Eve',
  });
  await caughtUp();
  const slug = 'acme-co';
  const { workspaceId } = await actions.createWorkspace(deps, context(), {
    name: 'Acme',
    slug,
    ownerId: MAKER,
  });
  await actions.createProduct(deps, context(), {
    workspaceId,
    key: 'ACME',
    name: 'Acme',
    visibility: 'public',
  });
  await caughtUp();
  const address = (itemKey: string) => ({
    workspaceId,
    productKey: itemKey.slice(0, itemKey.indexOf('-')),
    itemKey,
  });
  const survivorOf = (survivorKey: string) => {
    const { itemKey: _, ...where } = address(survivorKey);
    return { ...where, survivorKey };
  };

  return {
    url,
    events,
    readStore,
    search,
    workspaceId,
    slug,
    now,
    advance(ms) {
      clock += ms;
    },
    api: (userId = MAKER) => apiClient(url, `user:${userId}`),
    context,
    caughtUp,
    async submit(input) {
      const result = await actions.submitFeedback(deps, context(), {
        workspaceId,
        productKey: input.product ?? 'ACME',
        body: input.body ?? 'Please add dark mode',
        title: input.title ?? null,
        requester: {
          email: input.email ?? null,
          displayName: input.name ?? null,
          anonymousId: input.anonymousId ?? null,
        },
      });
      await caughtUp(result.position);
      return { itemKey: result.itemKey, personId: result.personId };
    },
    async reply(itemKey, kind, authorId, body = 'Thanks, noted') {
      const { position } = await actions.replyToItem(deps, context(), {
        ...address(itemKey),
        body,
        author: { kind, id: authorId, name: null, avatar: null },
      });
      await caughtUp(position);
    },
    async plusOne(itemKey, personId) {
      const { position } = await actions.addPlusOne(deps, context(), {
        workspaceId,
        itemKey,
        personId,
      });
      await caughtUp(position);
    },
    async setStatus(itemKey, status) {
      const { position } = await actions.updateItemStatus(deps, context(), {
        ...address(itemKey),
        status,
      });
      await caughtUp(position);
    },
    async tag(itemKey, tagIds) {
      const { position } = await actions.tagItem(deps, context(), { ...address(itemKey), tagIds });
      await caughtUp(position);
    },
    async merge(survivorKey, mergedKeys) {
      const input = { ...survivorOf(survivorKey), mergedKeys };
      await caughtUp((await actions.mergeItems(deps, context(), input)).position);
    },
    async unmerge(survivorKey, mergedKeys) {
      const input = { ...survivorOf(survivorKey), mergedKeys };
      await caughtUp((await actions.unmergeItems(deps, context(), input)).position);
    },
    async createProduct(key) {
      const { position } = await actions.createProduct(deps, context(), {
        workspaceId,
        key,
        name: key,
        visibility: 'public',
      });
      await caughtUp(position);
    },
    async countEvents(type) {
      return (await events.readAll({ filter: { eventTypes: [type] } })).length;
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await search.stop();
      await engine.stop();
      await readStore.close();
      await events.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A person registered directly (e.g. a +1 from someone who never submitted). */
export async function registerPerson(
  world: World,
  requester: { email?: string | null; name?: string | null; anonymousId?: string },
): Promise<string> {
  const { personId, position } = await actions.registerPerson(
    withPersonIds({
      commandHandler: createCommandHandler(world.events),
      readStore: world.readStore,
    }),
    world.context(),
    {
      workspaceId: world.workspaceId,
      requester: {
        email: requester.email ?? null,
        displayName: requester.name ?? null,
        anonymousId: requester.anonymousId ?? null,
      },
    },
  );
  await world.caughtUp(position);
  return personId;
}
