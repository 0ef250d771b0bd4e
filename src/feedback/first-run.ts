/**
 * `npm start` on an empty data directory: say exactly how to get a first workspace and token
 * (issue 3 item 9). Printed once per start, only while there is no maker account at all.
 */
import { usersOf } from '../../projections/users/projector.js';
import type { ReadStore } from '../readstore/types.js';

/**
 * `shared`: the stores are MongoDB (and KurrentDB), which other processes share: the CLI must be
 * pointed at them too, and `npm run dev -- --demo` would start one more server projecting beside
 * the projector process, so it is not offered there.
 */
export function firstRunInstructions(baseUrl: string, shared = false): string {
  return [
    'No maker accounts yet. Create a first workspace, product and API token with:',
    '',
    '  npm run cli -- create-user --email you@example.com',
    '  npm run cli -- create-workspace --slug acme-co --name "Acme" --owner you@example.com',
    '  npm run cli -- create-product --workspace acme-co --key APP --name "App" --visibility public',
    '  npm run cli -- create-token --email you@example.com --name laptop',
    '',
    'The last command prints the token once. To fill the board, import items:',
    '  npm run cli -- import-items --workspace acme-co --product APP --file examples/items.json',
    shared
      ? 'Run them with the EVENTSTORE_URL, MONGODB_URL, MONGODB_DATABASE and APP_SECRET of this process: the CLI writes to the stores it is configured with.'
      : 'Or stop and start over with a demo workspace and token: npm run dev -- --demo',
    '',
    'Then try:',
    `  curl -H "Authorization: Bearer <token>" ${baseUrl}/v1/workspaces/acme-co/products`,
    `API reference: ${baseUrl}/docs`,
  ].join('\n');
}

export async function announceFirstRun(
  readStore: ReadStore,
  baseUrl: string,
  print: (text: string) => void,
  shared = false,
): Promise<boolean> {
  if ((await usersOf(readStore).countDocuments({})) > 0) return false;
  print(firstRunInstructions(baseUrl, shared));
  return true;
}
