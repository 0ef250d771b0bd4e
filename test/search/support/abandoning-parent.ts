/**
 * A server that stops while its bulk helper embeds a batch: it starts the helper, has it embed
 * one text (the model is loaded), hands it a large batch and exits 300 ms later without waiting.
 */
import { forkModule } from '../../../src/platform/threads.js';

const child = forkModule(
  new URL('../../../src/search/bulk-helper.ts', import.meta.url).href,
  'embedder-child',
);
const texts = (count: number) =>
  Array.from({ length: count }, (_, i) => `feedback item ${i}: the CSV export drops a column`);
child.on('message', (message: { id: number }) => {
  if (message.id !== 1) return;
  child.send({ id: 2, texts: texts(400) });
  setTimeout(() => process.exit(0), 300);
});
child.send({ id: 1, texts: texts(1) });
