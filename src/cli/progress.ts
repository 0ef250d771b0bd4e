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
