import {
  productDecider,
  productStreamId,
  type Visibility,
} from '../../../commands/product/index.js';
import { NotFound } from '../../../commands/shared/errors.js';
import { workspaceDecider, workspaceStreamId } from '../../../commands/workspace/index.js';
import type { CommandContext, CommandDeps } from './deps.js';

/** Admin CLI: a product in a workspace. */
export async function createProduct(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; key: string; name: string; visibility: Visibility },
): Promise<{ position: bigint | null }> {
  const { state } = await deps.commandHandler.load(
    workspaceStreamId(input.workspaceId),
    workspaceDecider,
  );
  if (state.status === 'absent') throw new NotFound('workspace not found');
  const result = await deps.commandHandler.handle(
    productStreamId(input.workspaceId, input.key),
    productDecider,
    { type: 'CreateProduct', data: input },
    context,
  );
  return { position: result.position };
}

/** update_product: partial name / visibility; never deletes anything (spec rule 4). */
export async function updateProduct(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; key: string; name?: string; visibility?: Visibility },
): Promise<{ changed: boolean; position: bigint | null }> {
  const { workspaceId, key, ...data } = input;
  const result = await deps.commandHandler.handle(
    productStreamId(workspaceId, key),
    productDecider,
    { type: 'UpdateProduct', data },
    context,
  );
  return { changed: result.events.length > 0, position: result.position };
}
