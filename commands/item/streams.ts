/** `item-<workspaceId>.<ITEMKEY>` (DESIGN.md "Write side") */
export const itemStreamId = (workspaceId: string, itemKey: string): string =>
  `item-${workspaceId}.${itemKey}`;

/** Inverse of streamId; workspace ids never contain a dot, item keys never do either. */
export function parseItemStreamId(id: string): { workspaceId: string; itemKey: string } | null {
  const match = /^item-([^.]+)\.([A-Z]{3,5}-[1-9]\d*)$/.exec(id);
  return match ? { workspaceId: match[1]!, itemKey: match[2]! } : null;
}
