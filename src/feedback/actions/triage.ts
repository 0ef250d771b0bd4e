/** The triage operations on one item: each is one command on the item's stream. */
import {
  type AuthorKind,
  type ItemCommand,
  type ItemStatus,
  itemDecider,
  itemStreamId,
} from '../../../commands/item/index.js';
import { assertItemOfProduct, type CommandContext, type CommandDeps, idFor } from './deps.js';
import { namingSurvivor } from './merge-chain.js';

export interface ItemAddress {
  workspaceId: string;
  productKey: string;
  itemKey: string;
}

function stream(address: ItemAddress): string {
  assertItemOfProduct(address.productKey, address.itemKey);
  return itemStreamId(address.workspaceId, address.itemKey);
}

/** One command on the item; refused on a merged item, it names the end of the merge chain. */
async function onItem(
  deps: CommandDeps,
  context: CommandContext,
  address: ItemAddress,
  command: ItemCommand,
) {
  try {
    return await deps.commandHandler.handle(stream(address), itemDecider, command, context);
  } catch (error) {
    throw await namingSurvivor(deps, address.workspaceId, address.itemKey, error);
  }
}

/** update_item: title, body and status in one call; answers whether anything changed. */
export async function updateItem(
  deps: CommandDeps,
  context: CommandContext,
  input: ItemAddress & { title?: string; body?: string; status?: ItemStatus },
): Promise<{
  changed: boolean;
  position: bigint | null;
  /** the item stream's revision after this command (a retry: after its first attempt) */
  revision: number;
}> {
  const { workspaceId, productKey, itemKey, ...data } = input;
  const result = await onItem(deps, context, input, { type: 'UpdateItem', data });
  return {
    changed: result.events.length > 0,
    position: result.position,
    revision: result.revision,
  };
}

/** update_item_status: `changed` is false (and nothing is appended) when the status is unchanged. */
export async function updateItemStatus(
  deps: CommandDeps,
  context: CommandContext,
  input: ItemAddress & { status: ItemStatus },
): Promise<{ status: ItemStatus; changed: boolean; position: bigint | null }> {
  const result = await onItem(deps, context, input, {
    type: 'ChangeItemStatus',
    data: { status: input.status },
  });
  // an Idempotency-Key replay returns the first attempt's events: it did change the status
  return { status: input.status, changed: result.events.length > 0, position: result.position };
}

/** tag_item: replaces the whole set; answers the set now on the item. */
export async function tagItem(
  deps: CommandDeps,
  context: CommandContext,
  input: ItemAddress & { tagIds: string[] },
): Promise<{ tagIds: string[]; position: bigint | null }> {
  const result = await onItem(deps, context, input, {
    type: 'TagItem',
    data: { tagIds: input.tagIds },
  });
  const tagIds = result.state.status === 'absent' ? [] : result.state.tagIds;
  return { tagIds, position: result.position };
}

export interface ReplyAuthor {
  /** `agent` for OAuth clients, `maker` for personal tokens and ID tokens, `person` for end users */
  kind: AuthorKind;
  id: string;
  name: string | null;
  avatar: string | null;
}

/** reply_to_item: public at once; `parentId` threads it under an existing reply of the item. */
export async function replyToItem(
  deps: CommandDeps,
  context: CommandContext,
  input: ItemAddress & { body: string; parentId?: string | null; author: ReplyAuthor },
): Promise<{ replyId: string; position: bigint | null }> {
  const replyId = idFor('r', context, stream(input));
  const { author } = input;
  const result = await onItem(deps, context, input, {
    type: 'ReplyToItem',
    data: {
      replyId,
      parentId: input.parentId ?? null,
      authorKind: author.kind,
      authorId: author.id,
      authorName: author.name,
      authorAvatar: author.avatar,
      body: input.body,
    },
  });
  // a retry answers the reply its first attempt made (its id was derived otherwise before an
  // upgrade: commands/shared/request-hash.ts)
  const first = result.replayed ? result.events[0] : undefined;
  const made =
    first?.type === 'ItemReplied' ? (first.data as { replyId: string }).replyId : replyId;
  return { replyId: made, position: result.position };
}
