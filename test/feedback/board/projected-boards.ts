/**
 * Public boards in an in-memory read store, fed as the projection engine feeds the board: each
 * event applied by the real workspaces and products projectors, then heard by the versions
 * (src/feedback/board/versions.ts). For the product look-up's tests.
 */
import { productsProjector } from '../../../projections/products/projector.js';
import { workspacesProjector } from '../../../projections/workspaces/projector.js';
import type { RecordedEvent } from '../../../src/eventstore/types.js';
import { createBoardVersions } from '../../../src/feedback/board/versions.js';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';

const metadata = { actor: null, occurredAt: 1, correlationId: 'c', causationId: null };

export function projectedBoards() {
  const store = createMemoryReadStore();
  const versions = createBoardVersions();
  const projectors = [workspacesProjector(), productsProjector()];
  let position = 0n;
  const apply = async (streamId: string, type: string, data: unknown) => {
    position += 1n;
    const event: RecordedEvent = {
      id: `e${position}`,
      ...{ type, data, metadata, streamId, revision: 0, position },
    };
    for (const projector of projectors) await projector.apply(event, store);
    versions.heard(event);
  };
  /** a workspace `slug` with a public product for each of `keys`, named `Product <key>` */
  const board = async (workspaceId: string, slug: string, keys: string[]) => {
    await apply(`workspace-${workspaceId}`, 'WorkspaceCreated', { workspaceId, name: slug, slug });
    for (const key of keys) {
      const created = { workspaceId, key, name: `Product ${key}`, visibility: 'public' };
      await apply(`product-${workspaceId}.${key}`, 'ProductCreated', created);
    }
  };
  return { store, versions, apply, board };
}
