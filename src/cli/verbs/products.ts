/** Products of a workspace. */
import { z } from 'zod';
import { createProduct } from '../../feedback/actions/index.js';
import { checkFlags } from '../args.js';
import type { CliCommand } from '../command.js';
import { requireWorkspace } from '../lookups.js';
import { withSession } from '../session.js';
import { NameFlag, ProductKeyFlag, SlugFlag, VisibilityFlag } from '../values.js';

export const createProductCommand: CliCommand = {
  name: 'create-product',
  usage: '--workspace S --key KEY --name N [--visibility public|private]',
  summary: 'create a product; KEY is 3 to 5 uppercase letters and prefixes its item keys',
  flags: ['workspace', 'key', 'name', 'visibility'],
  async run(flags, env) {
    const input = checkFlags(
      z.object({
        workspace: SlugFlag,
        key: ProductKeyFlag,
        name: NameFlag,
        visibility: VisibilityFlag.default('public'),
      }),
      flags,
    );
    await withSession(env.config(), async ({ deps, context }) => {
      const workspace = await requireWorkspace(deps.readStore, input.workspace);
      await createProduct(deps, context(), {
        workspaceId: workspace.workspaceId,
        key: input.key,
        name: input.name,
        visibility: input.visibility,
      });
      env.out(`created ${input.visibility} product ${input.key} in ${workspace.slug}`);
    });
  },
};
