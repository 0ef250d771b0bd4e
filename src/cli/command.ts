/** The shape of one CLI command, and what every command gets to run. */
import type { Config } from '../config/schema.js';

export interface CliEnv {
  /**
   * the configuration, read when first needed (so `help` works even with a bad one); `read`: the
   * command only reads DATA_DIR, which need not be writable then (session.ts, readingOnly)
   */
  config(access?: 'read'): Config;
  /** a line of the command's answer on stdout */
  out(line: string): void;
  /**
   * a progress line, redrawn in place; only on a terminal (absent otherwise: a pipe or a log
   * file gets the answer alone)
   */
  progress?(line: string): void;
}

export interface CliCommand {
  name: string;
  /** flags as shown in help, e.g. `--email E [--name N]` */
  usage: string;
  summary: string;
  flags: readonly string[];
  run(flags: Map<string, string>, env: CliEnv): Promise<void>;
}
