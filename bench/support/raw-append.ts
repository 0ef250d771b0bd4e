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

export async function rawGroupCommit(
  dir: string,
  line: string,
  writers: number,
  seconds: number,
): Promise<Rate> {
  const file = await open(join(dir, 'raw-group.log'), 'a');
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
