/**
 * The board model's service as a split deployment (MODEL_TARGET=split, world.ts): two API
 * processes, a projector and a webhook worker over the engines (test/support/split-deployment.ts),
 * each request sent to the API process the run's Route draws from fast-check's seed (so a replay
 * sends it to the same one). What the in-process harness seeds through
 * the actions is seeded here as the admin CLI does it (its session of the stores); the clock is
 * the machine's, which no test can move.
 */
import { randomUUID } from 'node:crypto';
import * as actions from '../../../src/feedback/actions/index.js';
import type { Route } from '../../support/route.js';
import { startSplitDeployment } from '../../support/split-deployment.js';
import { type Api, apiClient, type FeedbackHarness } from '../support/harness.js';

/** What the model needs of a feedback service, in-process or split. */
export type Board = Pick<
  FeedbackHarness,
  'createMaker' | 'createWorkspace' | 'addMember' | 'createProduct' | 'stop'
> & {
  /** a maker's client; in split mode each request goes where `route` says */
  api(token: string, route: Route): Api;
  /** a base URL of the service (in split mode the API process `route` draws) */
  url(route: Route): string;
  /** the service's clock; `advance` only in-process */
  clock: { now(): number; advance?(ms: number): void };
  /** in the slugs and e-mails of this start: a KurrentDB keeps those of earlier runs taken */
  tag: string;
};

export async function splitBoard(env: Record<string, string>): Promise<Board> {
  const split = await startSplitDeployment({ env, webhooks: true });
  const tag = randomUUID().slice(0, 6);
  let homes = 0;
  const board: Board = {
    url: (route) => route.pick(split.feedback),
    clock: { now: Date.now },
    tag,
    api: (token, route) => {
      const clients = split.feedback.map((url) => apiClient(url, token));
      const any = () => route.pick(clients);
      return {
        get: (...args) => any().get(...args),
        post: (...args) => any().post(...args),
        patch: (...args) => any().patch(...args),
        put: (...args) => any().put(...args),
        del: (...args) => any().del(...args),
      };
    },
    createMaker: (email = `maker${tag}-${homes}@model.io`, tokenName = 'laptop') =>
      split.session(async ({ deps, context, caughtUp }) => {
        const displayName = email.split('@')[0]!;
        const { userId } = await actions.createUser(deps, context(), { email, displayName });
        await caughtUp();
        const slug = `maker${tag}-${++homes}`;
        const home = await actions.createWorkspace(deps, context(), {
          slug,
          name: `${email}'s workspace`,
          ownerId: userId,
        });
        await caughtUp();
        const token = await actions.createToken(deps, context(), {
          ownerId: userId,
          name: tokenName,
          expiresAt: null,
        });
        return {
          userId,
          email,
          token: token.token,
          tokenId: token.tokenId,
          tokenName: token.name,
          home: { workspaceId: home.workspaceId, slug },
        };
      }),
    createWorkspace: (owner, input) =>
      split.session(async ({ deps, context }) => {
        const { workspaceId } = await actions.createWorkspace(deps, context(), {
          ...input,
          ownerId: owner.userId,
        });
        return { workspaceId, slug: input.slug };
      }),
    addMember: (ws, userId, role = 'member') =>
      split.session(async ({ deps, context }) => {
        await actions.addMember(deps, context(), { workspaceId: ws.workspaceId, userId, role });
      }),
    createProduct: (ws, input) =>
      split.session(async ({ deps, context }) => {
        await actions.createProduct(deps, context(), {
          workspaceId: ws.workspaceId,
          key: input.key,
          name: input.name,
          visibility: input.visibility ?? 'public',
        });
      }),
    stop: () => split.stop(),
  };
  return board;
}
