/** import-items: a populated board from one JSON file (see examples/items.json). */
import { z } from 'zod';
import { checkFlags } from '../args.js';
import type { CliCommand } from '../command.js';
import { readImportFile } from '../items/file.js';
import { importItems } from '../items/importer.js';
import { requireProduct, requireWorkspace } from '../lookups.js';
import { fileToRead } from '../paths.js';
import { withSession } from '../session.js';
import { ProductKeyFlag, SlugFlag } from '../values.js';

export const importItemsCommand: CliCommand = {
  name: 'import-items',
  usage: '--workspace S --product KEY --file items.json',
  summary:
    'import feedback items (title, body, requester, status, tags, plusOnes, createdAt); re-running skips entries already imported',
  flags: ['workspace', 'product', 'file'],
  async run(flags, env) {
    const input = checkFlags(
      z.object({ workspace: SlugFlag, product: ProductKeyFlag, file: z.string().min(1) }),
      flags,
    );
    // validate the whole file before opening the stores: a bad file writes nothing
    const rows = readImportFile(fileToRead(input.file), input.file);
    await withSession(env.config(), async ({ deps, context }) => {
      const workspace = await requireWorkspace(deps.readStore, input.workspace);
      await requireProduct(deps.readStore, workspace, input.product);
      const report = await importItems(
        deps,
        context('import'),
        { workspaceId: workspace.workspaceId, productKey: input.product },
        rows,
      );
      const { imported, skipped } = report;
      env.out(
        `imported ${imported.length} ${imported.length === 1 ? 'item' : 'items'} into ` +
          `${workspace.slug}/${input.product}${keyRange(imported)}` +
          (skipped.length > 0 ? `; ${skipped.length} already imported, skipped` : ''),
      );
    });
  },
};

/** ` (APP-1 … APP-9)`: the first and last key imported; one key alone, nothing for none. */
function keyRange(keys: readonly string[]): string {
  if (keys.length === 0) return '';
  return keys.length === 1 ? ` (${keys[0]})` : ` (${keys[0]} … ${keys.at(-1)})`;
}
