/** Maker accounts and workspace membership. */
import { z } from 'zod';
import { membersOfWorkspace } from '../../../projections/workspaces/queries.js';
import {
  addMember,
  changeMemberRole,
  createUser,
  createWorkspace,
  removeMember,
} from '../../feedback/actions/index.js';
import { checkFlags } from '../args.js';
import type { CliCommand } from '../command.js';
import { requireUser, requireWorkspace } from '../lookups.js';
import { withSession } from '../session.js';
import { EmailFlag, NameFlag, RoleFlag, SlugFlag } from '../values.js';
import { emailKey } from '../../../commands/shared/email.js';

export const createUserCommand: CliCommand = {
  name: 'create-user',
  usage: '--email E [--name N]',
  summary: 'create a maker account (the name defaults to the part of the e-mail before @)',
  flags: ['email', 'name'],
  async run(flags, env) {
    const input = checkFlags(z.object({ email: EmailFlag, name: NameFlag.optional() }), flags);
    const email = emailKey(input.email);
    const displayName = input.name ?? email.slice(0, email.indexOf('@'));
    await withSession(env.config(), async ({ deps, context }) => {
      const { userId } = await createUser(deps, context(), { email, displayName });
      env.out(`created user ${email} (${userId})`);
    });
  },
};

export const createWorkspaceCommand: CliCommand = {
  name: 'create-workspace',
  usage: '--slug S --name N --owner EMAIL',
  summary: 'create a workspace; the owner (an existing user) becomes its admin',
  flags: ['slug', 'name', 'owner'],
  async run(flags, env) {
    const input = checkFlags(z.object({ slug: SlugFlag, name: NameFlag, owner: EmailFlag }), flags);
    await withSession(env.config(), async ({ deps, context }) => {
      const owner = await requireUser(deps.readStore, input.owner);
      const { workspaceId } = await createWorkspace(deps, context(), {
        slug: input.slug,
        name: input.name,
        ownerId: owner.userId,
      });
      env.out(`created workspace ${input.slug} (${workspaceId}), admin ${owner.email}`);
    });
  },
};

export const addMemberCommand: CliCommand = {
  name: 'add-member',
  usage: '--workspace S --email E --role admin|member',
  summary: "add a user to a workspace, or change a member's role",
  flags: ['workspace', 'email', 'role'],
  async run(flags, env) {
    const input = checkFlags(
      z.object({ workspace: SlugFlag, email: EmailFlag, role: RoleFlag }),
      flags,
    );
    await withSession(env.config(), async ({ deps, context }) => {
      const workspace = await requireWorkspace(deps.readStore, input.workspace);
      const user = await requireUser(deps.readStore, input.email);
      const target = { workspaceId: workspace.workspaceId, userId: user.userId, role: input.role };
      const members = await membersOfWorkspace(deps.readStore, workspace.workspaceId);
      const current = members.find((m) => m.userId === user.userId);
      if (!current) {
        await addMember(deps, context(), target);
        env.out(`added ${user.email} to ${workspace.slug} as ${input.role}`);
      } else if (current.role === input.role) {
        env.out(`${user.email} is already ${input.role} of ${workspace.slug}; nothing changed`);
      } else {
        await changeMemberRole(deps, context(), target);
        env.out(`${user.email} is now ${input.role} of ${workspace.slug} (was ${current.role})`);
      }
    });
  },
};

export const removeMemberCommand: CliCommand = {
  name: 'remove-member',
  usage: '--workspace S --email E',
  summary: 'remove a user from a workspace (its last admin cannot be removed)',
  flags: ['workspace', 'email'],
  async run(flags, env) {
    const input = checkFlags(z.object({ workspace: SlugFlag, email: EmailFlag }), flags);
    await withSession(env.config(), async ({ deps, context }) => {
      const workspace = await requireWorkspace(deps.readStore, input.workspace);
      const user = await requireUser(deps.readStore, input.email);
      const { changed } = await removeMember(deps, context(), {
        workspaceId: workspace.workspaceId,
        userId: user.userId,
      });
      env.out(
        changed
          ? `removed ${user.email} from ${workspace.slug}`
          : `${user.email} is not a member of ${workspace.slug}; nothing changed`,
      );
    });
  },
};
