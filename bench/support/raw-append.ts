/**
 * Raw baselines: what the disk gives for appending fixed-size JSON lines to a plain file with
 * fdatasync, one writer at a time, and with concurrent writers whose queued lines share one
 * write + fdatasync (the best a grouped-commit log can hope for).
 */
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

export interface Rate {
  appends: number;
  seconds: number;
  perSecond: number;
}

export const rate = (appends: number, startedAt: number): Rate => {
  const seconds = (performance.now() - startedAt) / 1000;
  return { appends, seconds, perSecond: appends / seconds };
};

export function rawSingleWriter(dir: string, line: string, seconds: number): Rate {
  const fd = openSync(join(dir, 'raw-single.log'), 'a');
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let appends = 0;
  try {
    while (performance.now() < deadline) {
      writeSync(fd, line);
      fdatasyncSync(fd);
      appends++;
    }
  } finally {
    closeSync(fd);
  }
  return rate(appends, started);
}

/**
 * `fullGroups`: the next group leaves one event-loop turn after the sync, once the writers just
 * acknowledged have queued again (as the store's writer client does). Without it the first of
 * them leaves alone and groups alternate 1 / writers-1 — about half the syncs wasted.
 */
export async function rawGroupCommit(
  dir: string,
  line: string,
  writers: number,
  seconds: number,
  fullGroups = false,
): Promise<Rate> {
  const file = await open(join(dir, fullGroups ? 'raw-full-groups.log' : 'raw-group.log'), 'a');
  let queue: { line: string; done: () => void }[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await file.write(batch.map((q) => q.line).join(''));
      await file.datasync();
      for (const q of batch) q.done();
      if (fullGroups) await new Promise((resume) => setImmediate(resume));
    }
    flushing = false;
  }

  const append = (text: string) =>
    new Promise<void>((done) => {
      queue.push({ line: text, done });
      if (!flushing) void flush();
    });

  const started = performance.now();
  const deadline = started + seconds * 1000;
  let appends = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < deadline) {
        await append(line);
        appends++;
      }
    }),
  );
  await file.close();
  return rate(appends, started);
}
