/**
 * Imports feedback items through the same actions the API uses (submit_feedback, then status,
 * tags and +1s), so imported items are indistinguishable from ones filed live — except that
 * they keep their original `createdAt` and are attributed `via: import`.
 *
 * Re-importing is safe. Each entry gets a key derived from its content and its target product;
 * the key is the submission's Idempotency-Key, so the product remembers which item number it
 * allocated for it. An entry whose item already exists is skipped as "already imported" (and
 * anything changed on the board since is left alone); an identical entry twice in one file is
 * imported once. An entry interrupted before its item was captured is completed on the next
 * run under the item number it was first given; one interrupted after the capture keeps what
 * it got (its status, tags or +1s may be missing — set them on the board).
 */
import { createHash } from 'node:crypto';
import { itemDecider, itemStreamId } from '../../../commands/item/index.js';
import { productDecider, productStreamId } from '../../../commands/product/index.js';
import {
  addPlusOne,
  type CommandContext,
  type CommandDeps,
  type PeopleDeps,
  registerPerson,
  submissionIdFor,
  submitFeedback,
  tagItem,
  updateItemStatus,
  withoutKey,
} from '../../feedback/actions/index.js';
import type { ImportRow } from './file.js';

export interface ImportTarget {
  workspaceId: string;
  productKey: string;
}

export interface ImportReport {
  /** item keys created, in file order */
  imported: string[];
  /** entries (1-based) skipped because their item already exists, with its key */
  skipped: { entry: number; itemKey: string }[];
}

/** Registering anonymous +1 people is independent per person: let their appends share fsyncs. */
const PEOPLE_AT_ONCE = 32;

export async function importItems(
  deps: PeopleDeps,
  context: CommandContext,
  target: ImportTarget,
  rows: readonly ImportRow[],
): Promise<ImportReport> {
  const report: ImportReport = { imported: [], skipped: [] };
  for (const [index, row] of rows.entries()) {
    const key = entryKey(target, row);
    const existing = await existingItem(deps, target, [
      submissionIdFor({ ...context, idempotencyKey: key }),
      key,
    ]);
    if (existing) {
      report.skipped.push({ entry: index + 1, itemKey: existing });
      continue;
    }
    report.imported.push(await importRow(deps, context, target, row, key));
  }
  return report;
}

async function importRow(
  deps: PeopleDeps,
  context: CommandContext,
  target: ImportTarget,
  row: ImportRow,
  key: string,
): Promise<string> {
  const { workspaceId, productKey } = target;
  const { itemKey } = await submitFeedback(
    deps,
    { ...context, idempotencyKey: key },
    {
      workspaceId,
      productKey,
      body: row.body,
      title: row.title || null,
      requester: {
        email: row.requester.email ?? null,
        displayName: row.requester.displayName ?? null,
        // the same anonymous requester on a re-run, never one person for every anonymous row
        anonymousId: row.requester.email ? null : `${key}:requester`,
      },
      allowPrivate: true,
      ...(row.createdAt !== undefined ? { createdAt: row.createdAt } : {}),
    },
  );
  const follow = withoutKey(context);
  const address = { workspaceId, productKey, itemKey };
  if (row.status !== 'new')
    await updateItemStatus(deps, follow, { ...address, status: row.status });
  if (row.tags.length > 0) await tagItem(deps, follow, { ...address, tagIds: row.tags });
  for (let from = 0; from < row.plusOnes; from += PEOPLE_AT_ONCE) {
    const batch = Array.from({ length: Math.min(PEOPLE_AT_ONCE, row.plusOnes - from) }, (_, i) =>
      registerPerson(deps, follow, {
        workspaceId,
        requester: { tier: 'anonymous', anonymousId: `${key}:plus-one:${from + i}` },
      }),
    );
    // +1s go to one stream, so one after another (concurrent appends would just conflict)
    for (const person of await Promise.all(batch)) {
      await addPlusOne(deps, follow, { workspaceId, itemKey, personId: person.personId });
    }
  }
  return itemKey;
}

/**
 * The item an earlier run created for this entry, if its capture completed: its number was
 * allocated under one of `submissionIds` (the entry's key itself, before submissions were
 * filed per caller).
 */
async function existingItem(
  deps: CommandDeps,
  target: ImportTarget,
  submissionIds: string[],
): Promise<string | null> {
  const product = await deps.commandHandler.load(
    productStreamId(target.workspaceId, target.productKey),
    productDecider,
  );
  if (product.state.status !== 'active') return null;
  const allocations = product.state.allocations;
  const number = submissionIds.map((id) => allocations.get(id)).find((n) => n !== undefined);
  if (number === undefined) return null;
  const itemKey = `${target.productKey}-${number}`;
  const item = await deps.commandHandler.load(
    itemStreamId(target.workspaceId, itemKey),
    itemDecider,
  );
  return item.state.status === 'absent' ? null : itemKey;
}

function entryKey(target: ImportTarget, row: ImportRow): string {
  const digest = createHash('sha256')
    .update(`${target.workspaceId}\0${target.productKey}\0${stableJson(row)}`)
    .digest('base64url');
  return `import:${digest.slice(0, 32)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const entries = keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
