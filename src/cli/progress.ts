/** A progress line on a terminal: redrawn in place, at most a few times a second. */
export function terminalProgress(
  stream: { write(text: string): unknown; columns?: number },
  now: () => number = () => performance.now(),
): (line: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (line) => {
    const done = line.endsWith('\n');
    if (!done && now() - last < 200) return;
    last = now();
    const width = Math.max(20, (stream.columns ?? 80) - 1);
    stream.write(`\r\u001b[2K${line.replace(/\n$/, '').slice(0, width)}${done ? '\n' : ''}`);
  };
}

/** `[######------------------]  25 %` for `done` of `total` (a bigint position or a count). */
export function progressBar(done: bigint, total: bigint, width = 24): string {
  const fraction = total <= 0n ? 1 : Math.min(1, Number((done * 1000n) / total) / 1000);
  const filled = Math.round(fraction * width);
  const percent = `${Math.floor(fraction * 100)}`.padStart(3);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent} %`;
}
