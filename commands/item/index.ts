import type { Decider } from '../shared/decider.js';
import { decideItem, type ItemCommand } from './decide.js';
import type { ItemEvent } from './events.js';
import { evolveItem, initialItemState, type ItemState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './merge.js';
export * from './notify.js';
export * from './state.js';
export * from './title.js';

export const itemDecider: Decider<ItemState, ItemCommand, ItemEvent> = {
  initialState: initialItemState,
  evolve: evolveItem,
  decide: decideItem,
};

/** `item-<workspaceId>.<ITEMKEY>` (DESIGN.md "Write side") */
export const streamId = (workspaceId: string, itemKey: string): string =>
  `item-${workspaceId}.${itemKey}`;
export const itemStreamId = streamId;

/** Inverse of streamId; workspace ids never contain a dot, item keys never do either. */
export function parseItemStreamId(id: string): { workspaceId: string; itemKey: string } | null {
  const match = /^item-([^.]+)\.([A-Z]{3,5}-[1-9]\d*)$/.exec(id);
  return match ? { workspaceId: match[1]!, itemKey: match[2]! } : null;
}
