/**
 * The CLI's answer on stdout, and its notices on stderr, when their reader may go away early:
 * `| head -1`, `grep -m1`, a script that took the line it needed. A write then fails with EPIPE,
 * which Node raises as an 'error' event no one handles: a stack trace, exit code 1, and the
 * command cut off part way (after a token was created, before its read model was written).
 *
 * Here EPIPE means only that nobody reads the rest. The command goes on to the end of its work,
 * writes nothing more to that stream, and exits as its work went: 0 when it was done. Not 141,
 * the shell's code for a process killed by SIGPIPE: the work was done, and under `set -o
 * pipefail` `token=$(… create-token … | head -1)` would otherwise fail a script that holds a
 * token which was created and is valid. Any other write error is kept for main.ts to report.
 */
export interface Output {
  /** writes `text` and a newline in one write, unless the reader is gone */
  line(text: string): void;
  /** a write error other than EPIPE, to report once the command has ended */
  failure(): Error | undefined;
}

export function outputTo(stream: NodeJS.WritableStream): Output {
  let gone = false;
  let failure: Error | undefined;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // after the first error, writes already under way fail as "destroyed": the same loss
    if (!gone && error.code !== 'EPIPE') failure = error;
    gone = true;
  });
  return {
    line(text) {
      if (!gone) stream.write(`${text}\n`);
    },
    failure: () => failure,
  };
}
