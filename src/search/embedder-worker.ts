/**
 * The process's embedder thread: loads providers (create-embedder.ts picks each) and embeds
 * batches on request, one at a time, so model inference never runs on the thread that serves
 * HTTP. It lives as long as the process (see embedder-thread.ts for why it is never ended).
 */
import { parentPort } from 'node:worker_threads';
import { createEmbedder } from './create-embedder.js';
import type { Embedder } from './embedder.js';
import type { FromEmbedder, ToEmbedder } from './embedder-protocol.js';

const port = parentPort!;
const send = (message: FromEmbedder) => port.postMessage(message);
const providers = new Map<number, Promise<Embedder>>();

async function serve(message: ToEmbedder): Promise<void> {
  switch (message.kind) {
    case 'load': {
      const { key } = message;
      const log = (level: 'info' | 'warn') => (text: string, fields?: Record<string, unknown>) =>
        send({ kind: 'log', key, level, message: text, fields });
      const loading = createEmbedder({
        ...message.options,
        logger: { info: log('info'), warn: log('warn') },
      });
      providers.set(key, loading);
      const embedder = await loading;
      send({ kind: 'loaded', id: message.id, ...describe(embedder) });
      return;
    }
    case 'embed': {
      const provider = providers.get(message.key);
      if (!provider) throw new Error('the embedder is closed');
      send({
        kind: 'vectors',
        id: message.id,
        vectors: await (await provider).embed(message.texts),
      });
      return;
    }
    case 'drop': {
      const provider = providers.get(message.key);
      providers.delete(message.key);
      const embedder = await provider?.catch(() => undefined);
      await embedder?.close?.();
      return;
    }
    default: {
      const _exhaustive: never = message;
      return _exhaustive;
    }
  }
}

function describe(embedder: Embedder) {
  return {
    provider: embedder.provider,
    dimensions: embedder.dimensions,
    maxChars: embedder.maxChars,
  };
}

// One request at a time: a provider works on one batch at a time anyway.
let queue: Promise<void> = Promise.resolve();
port.on('message', (message: ToEmbedder) => {
  queue = queue.then(() =>
    serve(message).catch((error: Error) => {
      if (message.kind !== 'drop') send({ kind: 'failed', id: message.id, message: error.message });
    }),
  );
});
