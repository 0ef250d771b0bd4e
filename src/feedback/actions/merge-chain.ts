/**
 * Where a merged item lives on. Merges chain — A merged into B, then B into C — and whatever
 * follows a merge follows the chain to its end, the final survivor C, through `mergeChain`
 * (commands/item/merge-chain.ts): a write's refusal naming where the item went, a +1 given on
 * it, a submission folded into it, the board's page and +1 button for it, and the public
 * changelog's claims about it (projections/changelog/items.ts).
 */
import {
  type ItemState,
  itemDecider,
  itemStreamId,
  MAX_MERGE_HOPS,
  mergeChain,
} from '../../../commands/item/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { type ItemDoc, itemDocId, itemsOf } from '../../../projections/items/document.js';
import { findItem } from '../../../projections/items/queries.js';
import type { ReadStore } from '../../readstore/types.js';
import type { CommandDeps } from './deps.js';

/** "ACME-1 was merged into ACME-3 (through ACME-2)": where a merged item lives on, and how. */
export function mergedMessage(chain: readonly string[], already = false): string {
  const through = chain.slice(1, -1);
  const via = through.length ? ` (through ${through.join(', ')})` : '';
  return `${chain[0]} was ${already ? 'already ' : ''}merged into ${chain.at(-1)}${via}`;
}

/** An item's merge chain on the write side, with each item's state (`states[i]` is `chain[i]`'s). */
export async function followMerges(
  deps: CommandDeps,
  workspaceId: string,
  itemKey: string,
): Promise<{ chain: string[]; states: ItemState[]; position: bigint | null }> {
  const states: ItemState[] = [];
  let position: bigint | null = null;
  const chain = await mergeChain(itemKey, async (key) => {
    const loaded = await deps.commandHandler.load(itemStreamId(workspaceId, key), itemDecider);
    states.push(loaded.state);
    position = loaded.position;
    return loaded.state.status === 'merged' ? loaded.state.survivorKey : null;
  });
  return { chain, states, position };
}

/**
 * The items living inside `root` at any depth (A merged into B: A lives inside B, and what was
 * merged into A too), depth by depth, each in the order it was merged: `mergedInto` names the
 * keys merged into one, `load` reads some by key (in that order; one it cannot find left out).
 * Bounded as `mergeChain` is.
 */
async function itemsInside<T>(
  root: T,
  keyOf: (item: T) => string,
  mergedInto: (item: T) => readonly string[],
  load: (keys: string[]) => Promise<T[]>,
): Promise<T[]> {
  const inside: T[] = [];
  const seen = new Set([keyOf(root)]);
  let depth = [root];
  for (let hops = 0; depth.length > 0 && hops <= MAX_MERGE_HOPS; hops++) {
    const keys = [...new Set(depth.flatMap(mergedInto))].filter((key) => !seen.has(key));
    if (keys.length === 0) break;
    for (const key of keys) seen.add(key);
    depth = await load(keys);
    inside.push(...depth);
  }
  return inside;
}

/**
 * The keys of the items living inside `itemKey` on the write side: what goes back with it when it
 * is unmerged.
 */
export async function keysInside(
  deps: CommandDeps,
  workspaceId: string,
  itemKey: string,
): Promise<string[]> {
  const load = (keys: string[]) =>
    Promise.all(
      keys.map(async (key) => {
        const { state } = await deps.commandHandler.load(
          itemStreamId(workspaceId, key),
          itemDecider,
        );
        return { key, merged: state.status === 'absent' ? [] : Object.keys(state.merges) };
      }),
    );
  const [root] = await load([itemKey]);
  const inside = await itemsInside(
    root!,
    (item) => item.key,
    (item) => item.merged,
    load,
  );
  return inside.map((item) => item.key);
}

/**
 * An item's merge chain in the read model (the board's pages, a changelog draft): `docs[i]` is
 * `chain[i]`'s document, the last one null when the chain ends at an item not there.
 */
export async function followMergedDocs(
  readStore: ReadStore,
  workspaceId: string,
  itemKey: string,
): Promise<{ chain: string[]; docs: (ItemDoc | null)[] }> {
  const docs: (ItemDoc | null)[] = [];
  const chain = await mergeChain(itemKey, async (key) => {
    const doc = await findItem(readStore, { workspaceId, itemKey: key });
    docs.push(doc);
    return doc?._mergedInto ?? null;
  });
  return { chain, docs };
}

/**
 * Every item living inside `survivor` at any depth, in the read model (a changelog draft): the
 * items merged into it, then those merged into them, and so on (A merged into B, then B into C:
 * inside C are B and A). Each depth in the order it was merged; one read per depth.
 */
export async function docsInside(readStore: ReadStore, survivor: ItemDoc): Promise<ItemDoc[]> {
  const items = itemsOf(readStore);
  return itemsInside(
    survivor,
    (doc) => doc.id,
    (doc) => doc._mergedKeys,
    async (keys) => {
      const found = await items.find({ _id: { $in: keys.map((k) => itemDocId(survivor._ws, k)) } });
      const byKey = new Map(found.map((doc) => [doc.id, doc]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },
  );
}

/**
 * A command's refusal on an item, saying where the item lives on when it was merged: the
 * decider names the item it was merged into (B), which may itself be merged (into C).
 */
export async function namingSurvivor(
  deps: CommandDeps,
  workspaceId: string,
  itemKey: string,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof FailedPrecondition)) return error;
  const { chain } = await followMerges(deps, workspaceId, itemKey);
  return chain.length > 2 ? new FailedPrecondition(mergedMessage(chain)) : error;
}
