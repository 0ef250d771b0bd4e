/**
 * The bulk helper's process (bulk-helper.ts): loads the bundled encoder and embeds one batch at
 * a time for its parent. It ends when the parent lets go of it (idle) or goes away.
 */
import { loadEnergeticEmbedder } from './energetic-embedder.js';

export interface ToBulkChild {
  id: number;
  texts: string[];
}
export type FromBulkChild = { id: number; vectors: Float32Array[] } | { id: number; error: string };

const loading = loadEnergeticEmbedder();
loading.catch(() => {}); // answered per request below
/**
 * A parent that stopped during a batch (its indexer abandons the batch, bulk-helper.ts) has gone
 * when the answer is ready: the child ends quietly, instead of dying of EPIPE with a stack trace
 * on the stderr it shares with the stopped server.
 */
const send = (message: FromBulkChild) => {
  if (!process.connected) return process.exit(0);
  process.send?.(message, undefined, {}, (error) => {
    if (error) process.exit(0);
  });
};

let queue: Promise<void> = Promise.resolve();
process.on('message', (message: ToBulkChild) => {
  queue = queue.then(async () => {
    try {
      send({ id: message.id, vectors: await (await loading).embed(message.texts) });
    } catch (error) {
      send({ id: message.id, error: (error as Error).message });
    }
  });
});
process.on('disconnect', () => process.exit(0));
