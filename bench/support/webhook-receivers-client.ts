/** bench:webhooks' side of its receivers process (webhook-receivers.ts): ports and receipts. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const TIME_CAP_MS = 120_000;

/** The receivers' process and what it reports. */
export interface Receivers {
  ports: number[];
  /** receipts per port */
  count(port: number): number;
  /** first receipt time per marker */
  receivedAt: Map<string, number>;
  until(check: () => boolean, what: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startReceivers(count: number): Promise<Receivers> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/support/webhook-receivers.ts', String(count)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const counts = new Map<number, number>();
  const receivedAt = new Map<string, number>();
  const waiters = new Set<() => void>();
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receivers exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('ready ')) resolve(line.slice(6).split(',').map(Number));
      if (!line.startsWith('r ')) return;
      const [, port, at, marker] = line.split(' ');
      counts.set(Number(port), (counts.get(Number(port)) ?? 0) + 1);
      if (marker && marker !== '-' && !receivedAt.has(marker)) receivedAt.set(marker, Number(at));
      for (const wake of waiters) wake();
    });
  });
  return {
    ports,
    count: (port) => counts.get(port) ?? 0,
    receivedAt,
    async until(check, what) {
      const deadline = Date.now() + TIME_CAP_MS;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`bench gave up waiting for ${what}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.clear();
      }
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
