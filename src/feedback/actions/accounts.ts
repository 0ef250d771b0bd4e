import { NotFound, AlreadyExists } from '../../../commands/shared/errors.js';
import { userDecider, userStreamId } from '../../../commands/user/index.js';
import {
  type MemberRole,
  workspaceDecider,
  workspaceStreamId,
} from '../../../commands/workspace/index.js';
import { userByEmail } from '../../../projections/users/queries.js';
import { workspaceBySlug } from '../../../projections/workspaces/queries.js';
import { type CommandContext, type CommandDeps, type FeedbackDeps, idFor } from './deps.js';

/** Admin CLI: a maker account. E-mails are unique (checked against the users read model). */
export async function createUser(
  deps: FeedbackDeps,
  context: CommandContext,
  input: { email: string; displayName: string; userId?: string },
): Promise<{ userId: string; position: bigint | null }> {
  if (await userByEmail(deps.readStore, input.email)) {
    throw new AlreadyExists('a user with this e-mail already exists');
  }
  const userId = input.userId ?? idFor('u_', context, `user:${input.email}`);
  const result = await deps.commandHandler.handle(
    userStreamId(userId),
    userDecider,
    { type: 'CreateUser', data: { userId, email: input.email, displayName: input.displayName } },
    context,
  );
  return { userId, position: result.position };
}

/** Admin CLI: a workspace with its owner as admin. Slugs are unique (checked on the read model). */
export async function createWorkspace(
  deps: FeedbackDeps,
  context: CommandContext,
  input: { name: string; slug: string; ownerId: string; workspaceId?: string },
): Promise<{ workspaceId: string; position: bigint | null }> {
  if (await workspaceBySlug(deps.readStore, input.slug)) {
    throw new AlreadyExists('a workspace with this slug already exists');
  }
  await requireUser(deps, input.ownerId);
  const workspaceId = input.workspaceId ?? idFor('w', context, `workspace:${input.slug}`);
  const result = await deps.commandHandler.handle(
    workspaceStreamId(workspaceId),
    workspaceDecider,
    {
      type: 'CreateWorkspace',
      data: { workspaceId, name: input.name, slug: input.slug, ownerId: input.ownerId },
    },
    context,
  );
  return { workspaceId, position: result.position };
}

export async function addMember(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; userId: string; role: MemberRole },
): Promise<{ changed: boolean; position: bigint | null }> {
  await requireUser(deps, input.userId);
  const { workspaceId, ...data } = input;
  const result = await deps.commandHandler.handle(
    workspaceStreamId(workspaceId),
    workspaceDecider,
    { type: 'AddMember', data },
    context,
  );
  return { changed: result.events.length > 0, position: result.position };
}

export async function changeMemberRole(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; userId: string; role: MemberRole },
): Promise<{ changed: boolean; position: bigint | null }> {
  const { workspaceId, ...data } = input;
  const result = await deps.commandHandler.handle(
    workspaceStreamId(workspaceId),
    workspaceDecider,
    { type: 'ChangeMemberRole', data },
    context,
  );
  return { changed: result.events.length > 0, position: result.position };
}

export async function removeMember(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; userId: string },
): Promise<{ changed: boolean; position: bigint | null }> {
  const result = await deps.commandHandler.handle(
    workspaceStreamId(input.workspaceId),
    workspaceDecider,
    { type: 'RemoveMember', data: { userId: input.userId } },
    context,
  );
  return { changed: result.events.length > 0, position: result.position };
}

async function requireUser(deps: CommandDeps, userId: string): Promise<void> {
  const { state } = await deps.commandHandler.load(userStreamId(userId), userDecider);
  if (state.status === 'absent') throw new NotFound(`user ${userId} not found`);
}
