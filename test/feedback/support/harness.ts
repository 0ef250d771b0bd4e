/**
 * The feedback service end to end, in-process: a real runtime (embedded stores in a temp
 * DATA_DIR, projections, the HTTP app on 127.0.0.1 at a free port), a controllable clock, and
 * seeding through the ACTIONS (seeding is setup; what a test asserts goes over HTTP). Every
 * seeding helper waits for the projections, so the next HTTP request sees what it wrote.
 *
 *   const fb = await startFeedback();
 *   const owner = await fb.createMaker('max@acme.io');           // user + own workspace + PAT
 *   const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
 *   await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
 *   const { itemKey } = await fb.submit(ws, 'APP', { body: 'Dark mode please' });
 *   const res = await fb.api(owner.token).get(`/v1/workspaces/acme-co/products/APP/items`);
 *   await fb.stop();
 */
import { join } from 'node:path';
import type { MemberRole } from '../../../commands/workspace/index.js';
import type { Visibility } from '../../../commands/product/index.js';
import type { CommandContext, CommandHandler } from '../../../src/write/command-handler.js';
import type { ReadStore } from '../../../src/readstore/types.js';
import type { Logger } from '../../../src/platform/logger.js';
import * as actions from '../../../src/feedback/actions/index.js';
import type { FeedbackApp } from '../../../src/feedback/app.js';
import { DEV_MAILBOX_FILE } from '../../../src/feedback/auth/settings.js';
import { createFeedbackService } from '../../../src/feedback/service.js';
import type { WebhooksOptions } from '../../../src/webhooks/index.js';
import { startTestRuntime, type TestRuntime } from '../../support/runtime.js';
import { type Api, apiClient } from './api.js';
import { freePort } from '../../support/ports.js';
import { withPersonIds } from '../../support/person-ids.js';
import type { PersonIds } from '../../../src/feedback/actions/index.js';

export { apiClient, type Api, type ApiResponse } from './api.js';

/**
 * Real time plus an offset the test moves forward (token expiry, follow-up ages, webhook retry
 * timers: a jump tells its listeners, so the webhook dispatcher re-plans at once).
 */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
  onAdvance?(listener: () => void): () => void;
}

export function offsetClock(): TestClock {
  let offset = 0;
  const listeners = new Set<() => void>();
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
      for (const listener of listeners) listener();
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface Maker {
  userId: string;
  email: string;
  /** a real personal API token (`rft_service_…`) created through the token action */
  token: string;
  tokenId: string;
  tokenName: string;
  /** the maker's own workspace (makers are users with at least one workspace) */
  home: Workspace;
}

export interface Workspace {
  workspaceId: string;
  slug: string;
}

export interface SubmitInput {
  body: string;
  title?: string | null;
  email?: string | null;
  displayName?: string | null;
  /** attribution label the item is captured with (e.g. `pat:laptop`); absent = board page */
  via?: string;
  createdAt?: number;
}

export interface FeedbackHarness {
  url: string;
  runtime: TestRuntime;
  clock: TestClock;
  /** the built app of the current run: registry (listRoutes, openapi), auth server */
  app(): FeedbackApp;
  /** the dev mailbox file sign-in codes are written to */
  mailboxPath: string;
  api(token?: string): Api;
  /** a user without any workspace (cannot create tokens) */
  createUser(email?: string, displayName?: string): Promise<{ userId: string; email: string }>;
  /** a user, their own workspace (admin) and a personal API token */
  createMaker(email?: string, tokenName?: string): Promise<Maker>;
  createToken(
    userId: string,
    input?: { name?: string; expiresAt?: number | null },
  ): Promise<{ tokenId: string; token: string; name: string }>;
  createWorkspace(
    owner: { userId: string },
    input: { slug: string; name: string },
  ): Promise<Workspace>;
  addMember(ws: Workspace, userId: string, role?: MemberRole): Promise<void>;
  setRole(ws: Workspace, userId: string, role: MemberRole): Promise<void>;
  removeMember(ws: Workspace, userId: string): Promise<void>;
  createProduct(
    ws: Workspace,
    input: { key: string; name: string; visibility?: Visibility },
  ): Promise<void>;
  submit(
    ws: Workspace,
    productKey: string,
    input: SubmitInput,
  ): Promise<{ itemKey: string; personId: string }>;
  /** command context for direct action calls in tests */
  context(extra?: Partial<CommandContext>): CommandContext;
  /** the action dependencies of the current run (restart() gives new ones) */
  deps(): { commandHandler: CommandHandler; readStore: ReadStore; personIds: PersonIds };
  /** wait until the read models include `position` (or the whole log) */
  caughtUp(position?: bigint | null): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: TestClock;
  /** check every answer against its response schema (default true) */
  validateResponses?: boolean;
  /**
   * listen on the same port across restart(): the base URL is the OAuth issuer and the tokens'
   * audience, so tokens survive a restart only on the same address
   */
  fixedPort?: boolean;
  /** where the runtime logs (default: nowhere); test/support/log-lines.ts reads lines back */
  logger?: Logger;
  /** outbound webhooks: a resolver, lease timings (the clock is the harness clock) */
  webhooks?: Omit<WebhooksOptions, 'clock'>;
}

export async function startFeedback(options: StartOptions = {}): Promise<FeedbackHarness> {
  const clock = options.clock ?? offsetClock();
  let built: FeedbackApp | undefined;
  const service = createFeedbackService({
    now: clock.now,
    validateResponses: options.validateResponses ?? true,
    webhooks: { clock, ...options.webhooks },
    onApp: (app) => {
      built = app;
    },
  });
  const env = { ...options.env };
  if (options.fixedPort && !env.FEEDBACK_PORT) env.FEEDBACK_PORT = String(await freePort());
  const runtime = await startTestRuntime([service], env, options.logger);
  let counter = 0;
  const next = () => ++counter;

  const rt = () => runtime.runtime;
  const deps = () =>
    withPersonIds(
      { commandHandler: rt().context.commandHandler, readStore: rt().stores.readStore },
      rt().context.secret,
    );
  const context = (extra: Partial<CommandContext> = {}): CommandContext => ({
    actor: 'test-setup',
    now: clock.now(),
    ...extra,
  });
  const caughtUp = async (position?: bigint | null) => {
    const target = position ?? (await rt().stores.eventStore.headPosition());
    await rt().context.waitFor(target);
  };

  const harness: FeedbackHarness = {
    get url() {
      return runtime.url('feedback');
    },
    runtime,
    clock,
    app() {
      if (!built) throw new Error('feedback app not built');
      return built;
    },
    mailboxPath: join(runtime.dir, DEV_MAILBOX_FILE),
    api: (token) => apiClient(runtime.url('feedback'), token),
    context,
    deps,
    caughtUp,

    async createUser(email, displayName) {
      const address = email ?? `user${next()}@example.com`;
      const { userId, position } = await actions.createUser(deps(), context(), {
        email: address,
        displayName: displayName ?? address.split('@')[0]!,
      });
      await caughtUp(position);
      return { userId, email: address.toLowerCase() };
    },

    async createMaker(email, tokenName = 'laptop') {
      const user = await harness.createUser(email);
      const home = await harness.createWorkspace(user, {
        slug: `maker-${next()}-home`,
        name: `${user.email}'s workspace`,
      });
      const token = await harness.createToken(user.userId, { name: tokenName });
      return { ...user, token: token.token, tokenId: token.tokenId, tokenName: token.name, home };
    },

    async createToken(userId, input = {}) {
      const created = await actions.createToken(deps(), context({ actor: userId }), {
        ownerId: userId,
        name: input.name ?? `token-${next()}`,
        expiresAt: input.expiresAt ?? null,
      });
      await caughtUp(created.position);
      return { tokenId: created.tokenId, token: created.token, name: created.name };
    },

    async createWorkspace(owner, input) {
      const { workspaceId, position } = await actions.createWorkspace(deps(), context(), {
        ...input,
        ownerId: owner.userId,
      });
      await caughtUp(position);
      return { workspaceId, slug: input.slug };
    },

    async addMember(ws, userId, role = 'member') {
      const { position } = await actions.addMember(deps(), context(), {
        workspaceId: ws.workspaceId,
        userId,
        role,
      });
      await caughtUp(position);
    },

    async setRole(ws, userId, role) {
      const { position } = await actions.changeMemberRole(deps(), context(), {
        workspaceId: ws.workspaceId,
        userId,
        role,
      });
      await caughtUp(position);
    },

    async removeMember(ws, userId) {
      const { position } = await actions.removeMember(deps(), context(), {
        workspaceId: ws.workspaceId,
        userId,
      });
      await caughtUp(position);
    },

    async createProduct(ws, input) {
      const { position } = await actions.createProduct(deps(), context(), {
        workspaceId: ws.workspaceId,
        key: input.key,
        name: input.name,
        visibility: input.visibility ?? 'public',
      });
      await caughtUp(position);
    },

    async submit(ws, productKey, input) {
      const result = await actions.submitFeedback(
        deps(),
        context(input.via ? { via: input.via } : {}),
        {
          workspaceId: ws.workspaceId,
          productKey,
          body: input.body,
          title: input.title ?? null,
          requester: {
            ...(input.email ? { email: input.email, tier: 'email' as const } : {}),
            displayName: input.displayName ?? null,
          },
          allowPrivate: true,
          ...(input.createdAt !== undefined ? { createdAt: input.createdAt } : {}),
        },
      );
      await caughtUp(result.position);
      return { itemKey: result.itemKey, personId: result.personId };
    },

    async restart() {
      built = undefined;
      await runtime.restart();
    },
    stop: () => runtime.stop(),
  };
  return harness;
}
